import type { Channel } from '@review-desk/shared';
import { emailContactKey } from '@review-desk/shared/contact';
import type { Db } from './db.ts';
import { dayOf } from './time.ts';

export type RequestStatus = 'sending' | 'sent' | 'failed';

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
  status: RequestStatus;
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
 * The request_daily roll-up counts finished requests (sent or failed) in the row of the UTC day
 * they were created. Clicks and completions count only for sent requests, so a rate never
 * exceeds 1. Every change below keeps that invariant in the same transaction as the write.
 */
const ROLLUP_UPSERT = `INSERT INTO request_daily
  (business_id, day, total, sent, failed, clicked, completed, feedback, handoffs, sms, email, both, link)
  VALUES (:business_id, :day, :total, :sent, :failed, :clicked, :completed, :feedback, :handoffs, :sms, :email, :both, :link)
  ON CONFLICT (business_id, day) DO UPDATE SET
    total = total + excluded.total, sent = sent + excluded.sent, failed = failed + excluded.failed,
    clicked = clicked + excluded.clicked, completed = completed + excluded.completed,
    feedback = feedback + excluded.feedback, handoffs = handoffs + excluded.handoffs,
    sms = sms + excluded.sms, email = email + excluded.email, both = both + excluded.both,
    link = link + excluded.link`;

export type RequestRollupDelta = {
  total: number;
  sent: number;
  failed: number;
  clicked: number;
  completed: number;
  feedback: number;
  handoffs: number;
  sms: number;
  email: number;
  both: number;
  link: number;
};

export function emptyRequestDelta(): RequestRollupDelta {
  return {
    total: 0,
    sent: 0,
    failed: 0,
    clicked: 0,
    completed: 0,
    feedback: 0,
    handoffs: 0,
    sms: 0,
    email: 0,
    both: 0,
    link: 0,
  };
}

/** What a finished request contributes to its day's roll-up row. */
export function requestContribution(
  r: Pick<RequestRow, 'status' | 'channel' | 'clicked_at' | 'feedback_at' | 'handoff_at' | 'completed_at'>,
  into: RequestRollupDelta = emptyRequestDelta(),
): RequestRollupDelta {
  if (r.status === 'sending') return into;
  into.total++;
  into[r.channel]++;
  if (r.status === 'failed') {
    into.failed++;
    return into;
  }
  into.sent++;
  if (r.clicked_at !== null) into.clicked++;
  if (r.completed_at !== null) into.completed++;
  if (r.feedback_at !== null) into.feedback++;
  if (r.handoff_at !== null) into.handoffs++;
  return into;
}

/**
 * What the frequency cap counts an email address under (the `email_key` column): its contact key,
 * so `ana+1@gmail.com` is the same customer as `ana@gmail.com`. The message still goes to
 * `customer_email`, the address as given.
 */
export function emailKey(email: string | null): string | null {
  return email === null ? null : emailContactKey(email);
}

export function requestStore(db: Db) {
  const insert = db.prepare(`INSERT INTO requests
    (public_id, token, business_id, api_key_id, channel, customer_name, customer_phone, customer_email, email_key,
     status, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending', ?)`);
  const byId = db.prepare('SELECT * FROM requests WHERE id = ?');
  const byToken = db.prepare('SELECT * FROM requests WHERE token = ?');
  const byPublicId = db.prepare('SELECT * FROM requests WHERE public_id = ?');
  const finish = db.prepare(
    "UPDATE requests SET status = ?, failed_leg = ?, warning = ?, error = ? WHERE id = ? AND status = 'sending'",
  );
  const rollup = db.prepare(ROLLUP_UPSERT);
  // Frequency cap (docs/api.md): a request that messaged this contact, still in flight or accepted.
  // Failed requests and failed legs reached nobody, links message nobody: none of them counts.
  const recentPhone = db.prepare(`SELECT 1 FROM requests WHERE business_id = ? AND customer_phone = ?
    AND created_at >= ? AND status != 'failed' AND channel IN ('sms', 'both')
    AND failed_leg IS NOT 'sms' LIMIT 1`);
  // An email is found under its contact key (`emailKey`): plus tags and Gmail's dots are one mailbox.
  const recentEmail = db.prepare(`SELECT 1 FROM requests WHERE business_id = ? AND email_key = ?
    AND created_at >= ? AND status != 'failed' AND channel IN ('email', 'both')
    AND failed_leg IS NOT 'email' LIMIT 1`);
  const setClicked = db.prepare('UPDATE requests SET clicked_at = ? WHERE id = ? AND clicked_at IS NULL');
  const setFeedback = db.prepare(
    'UPDATE requests SET feedback_at = ?, completed_at = coalesce(completed_at, ?) WHERE id = ? AND feedback_at IS NULL',
  );
  const setHandoff = db.prepare(
    'UPDATE requests SET handoff_at = ?, completed_at = coalesce(completed_at, ?) WHERE id = ? AND handoff_at IS NULL',
  );
  const setOptedOut = db.prepare(
    'UPDATE requests SET opted_out_at = ? WHERE id = ? AND opted_out_at IS NULL',
  );
  const insertOptOut = db.prepare(
    'INSERT INTO opt_outs (business_id, contact, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const optedOut = db.prepare('SELECT 1 FROM opt_outs WHERE business_id = ? AND contact = ?');
  const usage = db.prepare('SELECT n FROM send_usage WHERE business_id = ? AND month = ?');
  const addUsage = db.prepare(`INSERT INTO send_usage (business_id, month, n) VALUES (?, ?, ?)
    ON CONFLICT (business_id, month) DO UPDATE SET n = n + excluded.n`);
  const stale = db.prepare("SELECT * FROM requests WHERE status = 'sending' AND created_at < ?");
  const discardOutbox = db.prepare('DELETE FROM outbox_messages WHERE request_id = ?');
  const discard = db.prepare("DELETE FROM requests WHERE id = ? AND status = 'sending'");

  function applyRollup(businessId: number, day: number, d: RequestRollupDelta): void {
    rollup.run({ business_id: businessId, day, ...d });
  }

  /** Marks a step of the customer journey once; returns whether it was new. */
  function mark(
    row: RequestRow,
    statement: typeof setClicked,
    args: (number | null)[],
    delta: Partial<RequestRollupDelta>,
  ): boolean {
    const changed = statement.run(...args).changes > 0;
    if (changed && row.status === 'sent') {
      applyRollup(row.business_id, dayOf(row.created_at), { ...emptyRequestDelta(), ...delta });
    }
    return changed;
  }

  return {
    insert(r: NewRequest): RequestRow {
      const result = insert.run(
        r.publicId,
        r.token,
        r.businessId,
        r.apiKeyId,
        r.channel,
        r.customerName,
        r.customerPhone,
        r.customerEmail,
        emailKey(r.customerEmail),
        r.createdAt,
      );
      return byId.get(result.lastInsertRowid) as RequestRow;
    },
    byId(id: number): RequestRow | undefined {
      return byId.get(id) as RequestRow | undefined;
    },
    byToken(token: string): RequestRow | undefined {
      return byToken.get(token) as RequestRow | undefined;
    },
    byPublicId(publicId: string): RequestRow | undefined {
      return byPublicId.get(publicId) as RequestRow | undefined;
    },
    /** Records the outcome of the deliveries and counts the request in its day's roll-up. */
    finish(
      id: number,
      status: 'sent' | 'failed',
      outcome: { failedLeg?: 'sms' | 'email' | null; warning?: string | null; error?: string | null } = {},
    ): RequestRow {
      const changes = finish.run(
        status,
        outcome.failedLeg ?? null,
        outcome.warning ?? null,
        outcome.error ?? null,
        id,
      );
      if (changes.changes === 0) {
        throw new Error(`request ${id} is not being sent`);
      }
      const row = byId.get(id) as RequestRow;
      applyRollup(row.business_id, dayOf(row.created_at), requestContribution(row));
      return row;
    },
    contactedSince(businessId: number, contact: { phone?: string; email?: string }, since: number): boolean {
      if (contact.phone && recentPhone.get(businessId, contact.phone, since)) return true;
      if (contact.email && recentEmail.get(businessId, emailKey(contact.email), since)) return true;
      return false;
    },
    /** A phone as given; an email as given or under its contact key (the mailbox opted out). */
    isOptedOut(businessId: number, contact: string): boolean {
      if (optedOut.get(businessId, contact) !== undefined) return true;
      return contact.includes('@') && optedOut.get(businessId, emailContactKey(contact)) !== undefined;
    },
    optOut(row: RequestRow, now: number): void {
      setOptedOut.run(now, row.id);
      for (const contact of [row.customer_phone, row.customer_email, emailKey(row.customer_email)]) {
        if (contact) insertOptOut.run(row.business_id, contact, now);
      }
    },
    markClicked(row: RequestRow, now: number): boolean {
      return mark(row, setClicked, [now, row.id], { clicked: 1 });
    },
    markFeedback(row: RequestRow, now: number): boolean {
      return mark(row, setFeedback, [now, now, row.id], {
        feedback: 1,
        completed: row.completed_at === null ? 1 : 0,
      });
    },
    markHandoff(row: RequestRow, now: number): boolean {
      return mark(row, setHandoff, [now, now, row.id], {
        handoffs: 1,
        completed: row.completed_at === null ? 1 : 0,
      });
    },
    usage(businessId: number, month: string): number {
      return (usage.get(businessId, month) as { n: number } | undefined)?.n ?? 0;
    },
    addUsage(businessId: number, month: string, delta: number): void {
      addUsage.run(businessId, month, delta);
    },
    /**
     * Forgets a request still being sent whose only message the carrier refused for the contact
     * (opted out, or a number that cannot take texts): it is answered like a refusal before
     * sending, and counts nowhere.
     */
    discard(id: number): void {
      discardOutbox.run(id);
      discard.run(id);
    },
    /** Requests left in `sending` by a process that stopped during delivery. */
    staleSending(before: number): RequestRow[] {
      return stale.all(before) as RequestRow[];
    },
    applyRollup,
  };
}
