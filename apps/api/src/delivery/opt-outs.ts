import type { Database } from '@review-desk/server/db/types';

// Who may not be texted (component `delivery`): a STOP texted to one of the service's numbers,
// for every business sending from it (sms_number_opt_outs, decision 0028), and the older
// per-business opt-outs (sms_opt_outs: STOPs recorded before, and the carrier's own word). An
// opt-out is reported (contact.opted_out, hooks.optedOut) in the transaction that records it: to
// the business for the carrier's word, to every business that texted the phone from the number
// for a STOP.

/** Told of each opt-out inside its transaction (DeliveryHooks.optedOut in store.ts). */
export type OptOutHooks = {
  optedOut?: (businessId: number, phone: string, source: 'sms_stop' | 'carrier', at: number) => Promise<void>;
};

export function optOutStore(db: Database, hooks: OptOutHooks = {}) {
  const optOut = db.prepare(`INSERT INTO sms_opt_outs (business_id, phone, opted_out, updated_at)
    VALUES ($1, $2, $3, $4) ON CONFLICT (business_id, phone) DO UPDATE SET opted_out = excluded.opted_out,
    updated_at = excluded.updated_at`);
  // Opted out: by a STOP to the number the send goes from ($3), or for this business alone (an
  // older STOP, or the carrier's word).
  const STOPPED = `SELECT 1 AS hit FROM sms_opt_outs WHERE business_id = $1 AND phone = $2 AND opted_out = 1
    UNION ALL SELECT 1 AS hit FROM sms_number_opt_outs WHERE sender = $3 AND phone = $2 AND opted_out = 1`;
  const optedOut = db.prepare(`${STOPPED} LIMIT 1`);
  // A newer message wins; the same message (its MessageSid) never applies twice; at the same
  // second an opt-out wins. RETURNING gives a row only when the row was written.
  const numberKeyword = db.prepare(`INSERT INTO sms_number_opt_outs
      (sender, phone, opted_out, message_sid, message_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (sender, phone) DO UPDATE SET opted_out = excluded.opted_out, message_sid = excluded.message_sid,
      message_at = excluded.message_at, updated_at = excluded.updated_at
    WHERE excluded.message_sid <> sms_number_opt_outs.message_sid
      AND (excluded.message_at > sms_number_opt_outs.message_at
        OR (excluded.message_at = sms_number_opt_outs.message_at AND excluded.opted_out = 1))
    RETURNING opted_out`);
  // START lifts the per-business opt-outs of the phone recorded before it (not a newer one).
  const liftOlder = db.prepare(`UPDATE sms_opt_outs SET opted_out = 0, updated_at = $3
    WHERE phone = $1 AND opted_out = 1 AND updated_at <= $2`);
  // The businesses that texted this phone from this number: those a STOP to it is reported to.
  const textedFrom = db.prepare(`SELECT DISTINCT business_id FROM delivery_legs
    WHERE to_addr = $1 AND channel = 'sms' AND sender = $2`);

  return {
    async setOptOut(businessId: number, phone: string, out: boolean, at: number): Promise<void> {
      const told = hooks.optedOut;
      if (!out || !told) {
        await optOut.run(businessId, phone, out ? 1 : 0, at);
        return;
      }
      await db.transaction(async () => {
        await optOut.run(businessId, phone, 1, at);
        await told(businessId, phone, 'carrier', at);
      });
    },

    /**
     * The carrier's side alone: whether the phone may not be texted by this business from `sender`.
     * A send asks requests/opt-outs.ts, which also holds the page's opt-outs.
     */
    async isOptedOut(businessId: number, phone: string, sender: string | null): Promise<boolean> {
      return (await optedOut.get(businessId, phone, sender ?? '')) !== undefined;
    },

    /**
     * A STOP or START texted to `sender`, applied unless a newer message (or this one) already
     * was; returns whether it changed anything. START also lifts the phone's older per-business
     * opt-outs.
     */
    async applyNumberKeyword(message: {
      sender: string;
      phone: string;
      optOut: boolean;
      messageSid: string;
      /** When Twilio received it. */
      messageAt: number;
      at: number;
    }): Promise<boolean> {
      return db.transaction(async () => {
        const written = await numberKeyword.get(
          message.sender,
          message.phone,
          message.optOut ? 1 : 0,
          message.messageSid,
          message.messageAt,
          message.at,
        );
        if (written === undefined) return false;
        if (!message.optOut) await liftOlder.run(message.phone, message.messageAt, message.at);
        else if (hooks.optedOut) {
          const businesses = await textedFrom.all<{ business_id: number }>(message.phone, message.sender);
          for (const row of businesses)
            await hooks.optedOut(Number(row.business_id), message.phone, 'sms_stop', message.at);
        }
        return true;
      });
    },
  };
}
