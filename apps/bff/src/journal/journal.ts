import { randomUUID } from 'node:crypto';
import type { SendHistoryEntry, SendOutcome } from '@review-desk/shared';
import type { Db } from '../store/db.ts';
import { groupCommitter } from './group-commit.ts';

// The send journal: one row per forwarded send, claimed atomically *before* the request leaves
// (INSERT … ON CONFLICT DO NOTHING on the unique (user, idempotency key) index), then finished
// with the upstream's answer. It is both the idempotency record and the dashboard's send history.
//
// Claims and outcomes are group-committed (group-commit.ts): each resolves once committed, so a
// claim is durable before its send leaves and an outcome before its answer is written.

export type ClaimInput = {
  userId: string;
  sentBy: string;
  key: string;
  fingerprint: string;
  channel: string;
  customerName: string | null;
  contactMasked: string;
  phoneHash: string | null;
  emailHash: string | null;
};

export type JournalEntry = {
  id: string;
  fingerprint: string;
  outcome: SendOutcome;
  httpStatus: number | null;
  responseType: string | null;
  responseBody: Uint8Array | null;
  createdAt: number;
};

export type Finish = {
  outcome: Exclude<SendOutcome, 'in_flight'>;
  httpStatus: number | null;
  requestId?: string | null;
  status?: string | null;
  reviewLink?: string | null;
  warning?: string | null;
  error?: string | null;
  /** What a replay answers: kept only while the key is remembered. */
  response?: { type: string; body: Uint8Array } | null;
  /** Forget the key: the attempt definitely sent nothing, so a retry with it must go out again. */
  releaseKey?: boolean;
};

type Row = {
  id: string;
  created_at: number;
  finished_at: number | null;
  sent_by: string;
  channel: string;
  customer_name: string | null;
  contact_masked: string;
  outcome: SendOutcome;
  http_status: number | null;
  request_id: string | null;
  status: string | null;
  review_link: string | null;
  warning: string | null;
  error: string | null;
};

const ORPHANED =
  'The dashboard server stopped before the service answered: a request may have been sent. Check recent requests before sending again.';
const STALE =
  'No answer was recorded for this send: a request may have been sent. Check recent requests before sending again.';

/**
 * A UUID version 7 (RFC 9562): the millisecond clock in its first 48 bits, then random bits. Entry
 * ids in creation order put each new one at the end of the id index, on the page the previous
 * send already touched, rather than on a random page of it.
 */
function timeOrderedId(): string {
  const random = randomUUID();
  const clock = Date.now().toString(16).padStart(12, '0');
  return `${clock.slice(0, 8)}-${clock.slice(8, 12)}-7${random.slice(15)}`;
}

export function createJournal(db: Db) {
  const write = groupCommitter(db);
  const claim = db.prepare(
    `INSERT INTO sends (id, user_id, sent_by, idem_key, fingerprint, channel, customer_name, contact_masked,
                        phone_hash, email_hash, outcome, owner_pid, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'in_flight', ?, ?)
     ON CONFLICT (user_id, idem_key) WHERE idem_key IS NOT NULL DO NOTHING`,
  );
  const byKey = db.prepare(
    `SELECT id, fingerprint, outcome, http_status, response_type, response_body, created_at
       FROM sends WHERE user_id = ? AND idem_key = ?`,
  );
  // Two statements rather than one with `idem_key = CASE …`: assigning the key column, even to
  // itself, rewrites its unique index entry — a page of the WAL on every send for nothing.
  const finishColumns = `outcome = ?, http_status = ?, request_id = ?, status = ?, review_link = ?, warning = ?,
            error = ?, response_type = ?, response_body = ?, finished_at = ?`;
  const finish = db.prepare(`UPDATE sends SET ${finishColumns} WHERE id = ? AND outcome = 'in_flight'`);
  const finishReleasing = db.prepare(
    `UPDATE sends SET ${finishColumns}, idem_key = NULL WHERE id = ? AND outcome = 'in_flight'`,
  );
  const orphanAll = db.prepare(
    `UPDATE sends SET outcome = 'unknown', error = ?, finished_at = ? WHERE outcome = 'in_flight'`,
  );
  const orphanPid = db.prepare(
    `UPDATE sends SET outcome = 'unknown', error = ?, finished_at = ? WHERE outcome = 'in_flight' AND owner_pid = ?`,
  );
  const orphanStale = db.prepare(
    `UPDATE sends SET outcome = 'unknown', error = ?, finished_at = ? WHERE outcome = 'in_flight' AND created_at < ?`,
  );
  const forgetKeys = db.prepare(
    'UPDATE sends SET idem_key = NULL, response_body = NULL WHERE idem_key IS NOT NULL AND created_at < ?',
  );
  const dropOld = db.prepare('DELETE FROM sends WHERE created_at < ?');

  const listColumns = `id, created_at, finished_at, sent_by, channel, customer_name, contact_masked, outcome,
                       http_status, request_id, status, review_link, warning, error`;
  const listAll = db.prepare(
    `SELECT ${listColumns} FROM sends ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
  );
  const countAll = db.prepare('SELECT COUNT(*) AS n FROM sends');
  const listPhone = db.prepare(
    `SELECT ${listColumns} FROM sends WHERE phone_hash = ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
  );
  const countPhone = db.prepare('SELECT COUNT(*) AS n FROM sends WHERE phone_hash = ?');
  // An address is looked up under its contact key's hash and, for rows journaled before it, the
  // lower-cased address's (contact.ts): the same hash twice for most addresses.
  const listEmail = db.prepare(
    `SELECT ${listColumns} FROM sends WHERE email_hash IN (?, ?) ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
  );
  const countEmail = db.prepare('SELECT COUNT(*) AS n FROM sends WHERE email_hash IN (?, ?)');

  const toEntry = (row: Row): SendHistoryEntry => ({
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
    sentBy: row.sent_by,
    channel: row.channel,
    customerName: row.customer_name,
    contact: row.contact_masked,
    outcome: row.outcome,
    httpStatus: row.http_status,
    requestId: row.request_id,
    status: row.status,
    reviewLink: row.review_link,
    warning: row.warning,
    error: row.error,
  });

  return {
    /**
     * Claims the key. Resolves, once committed, with the new entry's id, or null when the key is
     * already in the journal.
     */
    claim(input: ClaimInput): Promise<string | null> {
      const id = timeOrderedId();
      return write(() => {
        const result = claim.run(
          id,
          input.userId,
          input.sentBy,
          input.key,
          input.fingerprint,
          input.channel,
          input.customerName,
          input.contactMasked,
          input.phoneHash,
          input.emailHash,
          process.pid,
          Date.now(),
        );
        return result.changes === 1 ? id : null;
      });
    },

    find(userId: string, key: string): JournalEntry | null {
      const row = byKey.get(userId, key) as
        | {
            id: string;
            fingerprint: string;
            outcome: SendOutcome;
            http_status: number | null;
            response_type: string | null;
            response_body: Uint8Array | null;
            created_at: number;
          }
        | undefined;
      if (!row) return null;
      return {
        id: row.id,
        fingerprint: row.fingerprint,
        outcome: row.outcome,
        httpStatus: row.http_status,
        responseType: row.response_type,
        responseBody: row.response_body,
        createdAt: row.created_at,
      };
    },

    /** Records the outcome; resolves once it is committed. */
    finish(id: string, result: Finish): Promise<void> {
      return write(() => {
        (result.releaseKey ? finishReleasing : finish).run(
          result.outcome,
          result.httpStatus,
          result.requestId ?? null,
          result.status ?? null,
          result.reviewLink ?? null,
          result.warning ?? null,
          result.error ?? null,
          result.response?.type ?? null,
          result.response?.body ?? null,
          Date.now(),
          id,
        );
      });
    },

    /** At start: an in_flight entry left by a stopped process becomes unknown (nobody waits on it). */
    orphanAll(now = Date.now()): number {
      return Number(orphanAll.run(ORPHANED, now).changes);
    },

    /** A worker process died: its in-flight sends can no longer be finished. */
    orphanProcess(pid: number, now = Date.now()): number {
      return Number(orphanPid.run(ORPHANED, now, pid).changes);
    },

    /** In-flight entries older than the upstream timeout (plus a margin) cannot still be waiting. */
    orphanStale(maxAgeMs: number, now = Date.now()): number {
      return Number(orphanStale.run(STALE, now, now - maxAgeMs).changes);
    },

    /** Forgets keys (and the replay bodies) past their retention; drops history past its own. */
    cleanup(retentionMs: number, historyMs: number, now = Date.now()): void {
      forgetKeys.run(now - retentionMs);
      dropOld.run(now - historyMs);
    },

    list(query: { page: number; limit: number; phoneHash?: string; emailHashes?: readonly string[] }) {
      const offset = (query.page - 1) * query.limit;
      let rows: Row[];
      let total: number;
      if (query.phoneHash !== undefined) {
        rows = listPhone.all(query.phoneHash, query.limit, offset) as Row[];
        total = Number((countPhone.get(query.phoneHash) as { n: number }).n);
      } else if (query.emailHashes !== undefined && query.emailHashes.length > 0) {
        const [current, legacy = current] = query.emailHashes as [string, string?];
        rows = listEmail.all(current, legacy, query.limit, offset) as Row[];
        total = Number((countEmail.get(current, legacy) as { n: number }).n);
      } else {
        rows = listAll.all(query.limit, offset) as Row[];
        total = Number((countAll.get() as { n: number }).n);
      }
      return { total, sends: rows.map(toEntry) };
    },
  };
}
export type Journal = ReturnType<typeof createJournal>;
