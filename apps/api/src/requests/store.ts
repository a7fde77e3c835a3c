import type { Queryable } from '@review-desk/server/db/types';
import type { Channel } from '@review-desk/shared';
import { emailContactKey } from '@review-desk/shared/contact';
import {
  emptyRequestDelta,
  type RequestRollupDelta,
  requestContribution,
  requestRollup,
} from '../analytics/request-rollup.ts';
import { refuseWhenFound } from '../store/refusals.ts';
import { dayOf } from '../store/time.ts';

/**
 * What a request counts as in the service's own record (the frequency cap, the allowance, the
 * roll-ups): being sent (held ones included), sent, or failed — nothing went out. Not the status
 * a caller reads back (shared RequestStatus, the delivery record's): docs/decisions/0025.
 */
export type CountedAs = 'sending' | 'sent' | 'failed';

export type RequestRow = {
  id: number;
  public_id: string;
  token: string;
  business_id: number;
  api_key_id: string | null;
  channel: Channel;
  customer_name: string | null;
  customer_phone: string | null;
  customer_email: string | null;
  status: CountedAs;
  failed_leg: 'sms' | 'email' | null;
  warning: string | null;
  error: string | null;
  created_at: number;
  clicked_at: number | null;
  feedback_at: number | null;
  handoff_at: number | null;
  completed_at: number | null;
  opted_out_at: number | null;
};

/** A request's outcome once its deliveries answered. */
export type FinishedAs = {
  status: 'sent' | 'failed';
  failedLeg: 'sms' | 'email' | null;
  warning: string | null;
  error: string | null;
};

export type NewRequest = {
  publicId: string;
  token: string;
  businessId: number;
  apiKeyId: string | null;
  channel: Channel;
  customerName: string | null;
  customerPhone: string | null;
  customerEmail: string | null;
  createdAt: number;
};

/**
 * What the frequency cap counts an email address under (the `email_key` column): its contact key,
 * so `ana+1@gmail.com` is the same customer as `ana@gmail.com`. The message still goes to
 * `customer_email`, the address as given.
 */
export function emailKey(email: string | null): string | null {
  return email === null ? null : emailContactKey(email);
}

// Frequency cap (docs/api.md): a request that messaged this contact, still in flight or accepted.
// Failed requests and failed legs reached nobody, links message nobody: none of them counts.
// An email is found under its contact key (`emailKey`): plus tags and Gmail's dots are one
// mailbox. Phone and email in one round trip; a missing contact is NULL and matches nothing.
const RECENT_SQL = `SELECT 1 AS hit FROM (
      SELECT 1 FROM requests WHERE business_id = $1 AND customer_phone = $2
        AND created_at >= $4 AND status <> 'failed' AND channel IN ('sms', 'both')
        AND failed_leg IS DISTINCT FROM 'sms'
      UNION ALL
      SELECT 1 FROM requests WHERE business_id = $1 AND email_key = $3
        AND created_at >= $4 AND status <> 'failed' AND channel IN ('email', 'both')
        AND failed_leg IS DISTINCT FROM 'email'
    ) AS found LIMIT 1`;

// The same, at a held request's time: any other request to the contact (docs/api.md, "Sending later").
const OTHER_RECENT_SQL = RECENT_SQL.replaceAll('AND created_at >= $4', 'AND created_at >= $4 AND id <> $5');

export function requestStore(db: Queryable) {
  const insert = db.prepare(`INSERT INTO requests
    (public_id, token, business_id, api_key_id, channel, customer_name, customer_phone, customer_email, email_key,
     status, failed_leg, warning, error, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *`);
  const byId = db.prepare('SELECT * FROM requests WHERE id = $1');
  const byToken = db.prepare('SELECT * FROM requests WHERE token = $1');
  const byPublicId = db.prepare('SELECT * FROM requests WHERE public_id = $1');
  const finish = db.prepare(`UPDATE requests SET status = $1, failed_leg = $2, warning = $3, error = $4
    WHERE id = $5 AND status = 'sending' RETURNING *`);
  const applyRollup = requestRollup(db);
  const recent = db.prepare(RECENT_SQL);
  const otherRecent = db.prepare(OTHER_RECENT_SQL);
  const setClicked = db.prepare('UPDATE requests SET clicked_at = $1 WHERE id = $2 AND clicked_at IS NULL');
  const setFeedback = db.prepare(
    'UPDATE requests SET feedback_at = $1, completed_at = coalesce(completed_at, $1) WHERE id = $2 AND feedback_at IS NULL',
  );
  const setHandoff = db.prepare(
    'UPDATE requests SET handoff_at = $1, completed_at = coalesce(completed_at, $1) WHERE id = $2 AND handoff_at IS NULL',
  );
  const setOptedOut = db.prepare(
    'UPDATE requests SET opted_out_at = $1 WHERE id = $2 AND opted_out_at IS NULL',
  );
  const insertOptOut = db.prepare(
    'INSERT INTO opt_outs (business_id, contact, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
  );
  // The cap as a send checks it: refuses the send by itself (refusals.ts).
  const refuseContacted = refuseWhenFound(db, 'frequency_capped', RECENT_SQL);
  const stale = db.prepare("SELECT * FROM requests WHERE status = 'sending' AND created_at < $1");
  const discardOutbox = db.prepare('DELETE FROM outbox_messages WHERE request_id = $1');
  const discard = db.prepare("DELETE FROM requests WHERE id = $1 AND status = 'sending'");

  /** Marks a step of the customer journey once; returns whether it was new. */
  async function mark(
    row: RequestRow,
    statement: typeof setClicked,
    now: number,
    delta: Partial<RequestRollupDelta>,
  ): Promise<boolean> {
    const changed = (await statement.run(now, row.id)).changes > 0;
    if (changed && row.status === 'sent') {
      await applyRollup(row.business_id, dayOf(row.created_at), { ...emptyRequestDelta(), ...delta });
    }
    return changed;
  }

  return {
    /**
     * A request being sent; or, when its outcome is already known (`finished`), the request as
     * finished, counted in its day's roll-up.
     */
    async insert(r: NewRequest, finished?: FinishedAs): Promise<RequestRow> {
      const inserted = insert.get<RequestRow>(
        r.publicId,
        r.token,
        r.businessId,
        r.apiKeyId,
        r.channel,
        r.customerName,
        r.customerPhone,
        r.customerEmail,
        emailKey(r.customerEmail),
        finished?.status ?? 'sending',
        finished?.failedLeg ?? null,
        finished?.warning ?? null,
        finished?.error ?? null,
        r.createdAt,
      );
      // A request written finished is counted in its day's roll-up: both statements go out
      // together (one round trip on PostgreSQL); a new row is never clicked or completed yet.
      const counted =
        finished &&
        applyRollup(
          r.businessId,
          dayOf(r.createdAt),
          requestContribution({
            status: finished.status,
            channel: r.channel,
            clicked_at: null,
            completed_at: null,
            feedback_at: null,
            handoff_at: null,
          }),
        );
      const [row] = await Promise.all([inserted, counted]);
      return row!;
    },
    byId: (id: number) => byId.get<RequestRow>(id),
    byToken: (token: string) => byToken.get<RequestRow>(token),
    byPublicId: (publicId: string) => byPublicId.get<RequestRow>(publicId),
    /** Records the outcome of the deliveries and counts the request in its day's roll-up. */
    async finish(
      id: number,
      status: 'sent' | 'failed',
      outcome: Partial<Omit<FinishedAs, 'status'>> = {},
    ): Promise<RequestRow> {
      const row = await finish.get<RequestRow>(
        status,
        outcome.failedLeg ?? null,
        outcome.warning ?? null,
        outcome.error ?? null,
        id,
      );
      if (!row) throw new Error(`request ${id} is not being sent`);
      await applyRollup(row.business_id, dayOf(row.created_at), requestContribution(row));
      return row;
    },
    async contactedSince(
      businessId: number,
      contact: { phone?: string; email?: string },
      since: number,
    ): Promise<boolean> {
      if (!contact.phone && !contact.email) return false;
      const email = contact.email ? emailKey(contact.email) : null;
      return (await recent.get(businessId, contact.phone ?? null, email, since)) !== undefined;
    },
    /** Whether a request other than `row` messaged its contacts since `since` (a held one's cap, made again). */
    async contactedBesides(row: RequestRow, phone: string | null, email: string | null, since: number) {
      if (!phone && !email) return false;
      return (await otherRecent.get(row.business_id, phone, emailKey(email), since, row.id)) !== undefined;
    },
    async optOut(row: RequestRow, now: number): Promise<void> {
      await setOptedOut.run(now, row.id);
      for (const contact of [row.customer_phone, row.customer_email, emailKey(row.customer_email)]) {
        if (contact) await insertOptOut.run(row.business_id, contact, now);
      }
    },
    markClicked(row: RequestRow, now: number): Promise<boolean> {
      return mark(row, setClicked, now, { clicked: 1 });
    },
    markFeedback(row: RequestRow, now: number): Promise<boolean> {
      return mark(row, setFeedback, now, { feedback: 1, completed: row.completed_at === null ? 1 : 0 });
    },
    markHandoff(row: RequestRow, now: number): Promise<boolean> {
      return mark(row, setHandoff, now, { handoffs: 1, completed: row.completed_at === null ? 1 : 0 });
    },
    /** A send's check: rejects with a Refused (refusals.ts) when a contact was messaged since `since`. */
    refuseContacted(businessId: number, phone: string | null, email: string | null, since: number) {
      return refuseContacted(businessId, phone, emailKey(email), since);
    },
    /**
     * Forgets a request still being sent whose only message the carrier refused for the contact
     * (opted out, or a number that cannot take texts): it is answered like a refusal before
     * sending, and counts nowhere.
     */
    async discard(id: number): Promise<void> {
      await discardOutbox.run(id);
      await discard.run(id);
    },
    /** Requests left in `sending` by a process that stopped during delivery. */
    staleSending: (before: number) => stale.all<RequestRow>(before),
    applyRollup,
  };
}
