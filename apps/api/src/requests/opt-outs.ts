import type { Queryable } from '@review-desk/server/db/types';
import { refuseWhenFound } from '../store/refusals.ts';
import { emailKey } from './store.ts';

// Who asked not to be messaged: two tables, one question (docs/decisions/0025-two-records-of-a-
// request-and-its-opt-outs.md). `opt_outs`: the customer used the opt-out link of a request's page,
// for every contact of that request and an address's contact key, for good. `sms_opt_outs`: the
// phone's state with the carrier — STOP (or the carrier refusing a text as opted out) sets it, START
// clears it. A send, a held send and a reminder ask both at once, for the contacts they message.

const OPTED_OUT_SQL = `SELECT 1 AS hit FROM (
    SELECT 1 FROM opt_outs WHERE business_id = $1 AND contact IN ($2, $3, $4)
    UNION ALL
    SELECT 1 FROM sms_opt_outs WHERE business_id = $1 AND phone = $2 AND opted_out = 1
  ) AS found LIMIT 1`;

export function optOutStore(db: Queryable) {
  const optedOut = db.prepare(OPTED_OUT_SQL);
  const refuse = refuseWhenFound(db, 'opted_out', OPTED_OUT_SQL);
  return {
    /** Whether the phone or the address (or its contact key) opted out of this business's messages. */
    async optedOut(businessId: number, phone: string | null, email: string | null): Promise<boolean> {
      return (await optedOut.get(businessId, phone, email, emailKey(email))) !== undefined;
    },
    /** The same, as a send's check: rejects with a Refused (store/refusals.ts). */
    refuse(businessId: number, phone: string | null, email: string | null): Promise<void> {
      return refuse(businessId, phone, email, emailKey(email));
    },
  };
}
export type OptOutStore = ReturnType<typeof optOutStore>;
