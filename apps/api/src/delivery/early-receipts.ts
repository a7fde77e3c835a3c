import type { Database, Queryable, Transaction } from '@review-desk/server/db/types';
import { DAY_MS, LEG_STATE_RANK, type LegState } from '@review-desk/shared';

// Receipts that outrun their leg. A carrier may call back about a message before the send that
// handed it over has recorded the leg (the carrier's answer and its first status callback can
// cross on the wire). Such a receipt is held, keyed by the carrier's message id, and applied when
// the leg is written. Both sides take a lock on the message id, so whichever comes second sees
// what the first committed. The callbacks are signed by the carrier; rows older than a day are
// swept and at most HELD_MAX are kept, so even a flood of signed callbacks cannot grow the table.

const HELD_MAX = 10_000;
/** The carriers that call back about a message (the outbox makes up its receipts later itself). */
const CALLING_BACK = new Set(['twilio']);

/** Whether a leg's carrier may call back before the leg is recorded. */
export const callsBack = (provider: string) => CALLING_BACK.has(provider);
const KEEP_MS = DAY_MS;

export type Receipt = { state: LegState; errorCode: string | null; error: string | null; at: number };

export function earlyReceipts(
  db: Database,
  receipt: { run(...params: (string | number | null)[]): Promise<{ changes: number }> },
) {
  const hold =
    db.prepare(`INSERT INTO delivery_early_receipts (provider_message_id, state, rank, error_code, error, at)
    VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (provider_message_id) DO UPDATE SET state = excluded.state,
      rank = excluded.rank, error_code = excluded.error_code, error = excluded.error, at = excluded.at
    WHERE excluded.rank > delivery_early_receipts.rank`);
  const take = db.prepare(
    'DELETE FROM delivery_early_receipts WHERE provider_message_id = $1 RETURNING state, error_code, error, at',
  );
  const sweep = db.prepare('DELETE FROM delivery_early_receipts WHERE at < $1');
  const count = db.prepare('SELECT count(*) AS n FROM delivery_early_receipts');
  const legExists = db.prepare('SELECT 1 AS hit FROM delivery_legs WHERE provider_message_id = $1');

  const apply = (id: string, r: Receipt) =>
    receipt.run(id, r.state, r.errorCode, r.error, r.at, LEG_STATE_RANK[r.state]);

  return {
    /** Applies a receipt to its leg, or holds it until the leg is written. */
    async receive(id: string, r: Receipt): Promise<'changed' | 'unchanged' | 'held' | 'dropped'> {
      // Nearly always the leg is there: one statement. Only a receipt that moved nothing is
      // looked at again under the lock (its leg may be being written that moment).
      if ((await apply(id, r)).changes > 0) return 'changed';
      return db.transaction(async (tx) => {
        await tx.lock('receipt', id);
        if ((await apply(id, r)).changes > 0) return 'changed';
        if (await legExists.get(id)) return 'unchanged';
        await sweep.run(r.at - KEEP_MS);
        if (Number((await count.get<{ n: number }>())?.n ?? 0) >= HELD_MAX) return 'dropped';
        await hold.run(id, r.state, LEG_STATE_RANK[r.state], r.errorCode, r.error, r.at);
        return 'held';
      });
    },
    /** Inside the transaction that writes a leg: its lock first, then the held receipt, if any. */
    async lock(tx: Transaction, id: string): Promise<void> {
      await tx.lock('receipt', id);
    },
    async settle(q: Queryable, id: string): Promise<void> {
      const held = await q.get<{
        state: LegState;
        error_code: string | null;
        error: string | null;
        at: number;
      }>(take.sql, id);
      if (held)
        await apply(id, {
          state: held.state,
          errorCode: held.error_code,
          error: held.error,
          at: Number(held.at),
        });
    },
  };
}
