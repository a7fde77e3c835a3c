import type { Queryable } from '@review-desk/server/db/types';
import { refuseWhenFound } from '../store/refusals.ts';
import { emailKey } from './store.ts';

// Who asked not to be messaged: two tables, one question (docs/decisions/0030-two-records-of-a-
// request-and-its-opt-outs.md). `opt_outs`: the customer used the opt-out link of a request's page,
// for every contact of that request and an address's contact key, for good. The carrier's side
// (delivery/opt-outs.ts writes it): `sms_number_opt_outs`, a STOP texted to the number the send goes
// from, for every business sending from it (decision 0028), and `sms_opt_outs`, the phone's older
// per-business state (a STOP recorded before, or the carrier refusing a text as opted out); START
// clears both. A send, a held send and a reminder ask all at once, for the contacts they message.

const OPTED_OUT_SQL = `SELECT 1 AS hit FROM (
    SELECT 1 FROM opt_outs WHERE business_id = $1 AND contact IN ($2, $3, $4)
    UNION ALL
    SELECT 1 FROM sms_opt_outs WHERE business_id = $1 AND phone = $2 AND opted_out = 1
    UNION ALL
    SELECT 1 FROM sms_number_opt_outs WHERE sender = $5 AND phone = $2 AND opted_out = 1
  ) AS found LIMIT 1`;

/** The contacts a message goes to, and the number texts go from (null: none known). */
export type Contacts = { phone: string | null; email: string | null; sender: string | null };

const params = (businessId: number, { phone, email, sender }: Contacts) =>
  [businessId, phone, email, emailKey(email), sender ?? ''] as const;

export function optOutStore(db: Queryable) {
  const optedOut = db.prepare(OPTED_OUT_SQL);
  const refuse = refuseWhenFound(db, 'opted_out', OPTED_OUT_SQL);
  return {
    /**
     * Whether the phone or the address (or its contact key) opted out of this business's messages;
     * `sender` is the number texts go from (a STOP to it holds for every business).
     */
    async optedOut(businessId: number, contacts: Contacts): Promise<boolean> {
      return (await optedOut.get(...params(businessId, contacts))) !== undefined;
    },
    /** The same, as a send's check: rejects with a Refused (store/refusals.ts). */
    refuse(businessId: number, contacts: Contacts): Promise<void> {
      return refuse(...params(businessId, contacts));
    },
  };
}
export type OptOutStore = ReturnType<typeof optOutStore>;
