import type { Queryable } from '@review-desk/server/db/types';
import { refuseUnlessWritten } from '../store/refusals.ts';

// The monthly sending allowance (MONTHLY_SEND_ALLOWANCE; docs/api.md: beyond it → 403): messages a
// business sent in a calendar month, one row per business and month in `send_usage`. A message is
// taken by one conditional UPSERT that writes nothing when the month is used up, so concurrent
// sends from any number of processes never pass it together; one that reached nobody is given back.

const TAKE_SQL = `INSERT INTO send_usage (business_id, month, n) VALUES ($1, $2, 1)
  ON CONFLICT (business_id, month) DO UPDATE SET n = send_usage.n + 1 WHERE send_usage.n < $3
  RETURNING n`;

export function allowanceStore(db: Queryable) {
  const take = db.prepare(TAKE_SQL);
  const giveBack = db.prepare(`INSERT INTO send_usage (business_id, month, n) VALUES ($1, $2, -1)
    ON CONFLICT (business_id, month) DO UPDATE SET n = send_usage.n - 1`);
  // As a send's check: refuses the send by itself (refusals.ts).
  const refuseUsedUp = refuseUnlessWritten(db, 'allowance_exceeded', TAKE_SQL);
  return {
    /** Takes one message of the month's `limit`; false (nothing taken) when it is used up. */
    async take(businessId: number, month: string, limit: number): Promise<boolean> {
      return (await take.get(businessId, month, limit)) !== undefined;
    },
    /** The same, as a send's check: rejects with a Refused when the month is used up. */
    takeOrRefuse(businessId: number, month: string, limit: number): Promise<void> {
      return refuseUsedUp(businessId, month, limit);
    },
    /** Gives back one message that reached nobody. */
    async giveBack(businessId: number, month: string): Promise<void> {
      await giveBack.run(businessId, month);
    },
  };
}
