import { groupCommit } from '@review-desk/server/db/group-commit';
import { isoTime } from '@review-desk/server/db/rows';
import type { Database } from '@review-desk/server/db/types';
import type { SendHistoryEntry, SendOutcome } from '@review-desk/shared';
import { timeOrderedId } from './ids.ts';

// The send journal: one row per forwarded send, claimed atomically *before* the request leaves
// (INSERT … ON CONFLICT DO NOTHING on the unique (user, idempotency key) index), then finished
// with the upstream's answer. It is both the idempotency record and the dashboard's send history.
//
// Claims and outcomes are group-committed (packages/server db/group-commit.ts): each resolves once
// committed, so a claim is durable before its send leaves and an outcome before its answer is
// written. Each claim carries the claiming BFF's instance id: when that instance's lease runs out
// (it stopped), its in-flight sends, and no other replica's, become unknown.

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
  /** The id of the location the send goes to. */
  location: string;
};

export type JournalEntry = {
  id: string;
  fingerprint: string;
  /** The id of the location the key was used for. */
  location: string;
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

type KeyRow = Pick<JournalEntry, 'id' | 'fingerprint' | 'location' | 'outcome'> & {
  http_status: number | null;
  response_type: string | null;
  response_body: Uint8Array | null;
  created_at: number;
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

// The stale sweep reads `sends_owner_in_flight`, the one index of the in-flight rows (migration 005):
// SQLite scans a partial index only when told to (else it walks all older history by `sends_created`).
export const orphanStaleSql = (dialect: Database['dialect']) =>
  `UPDATE sends${dialect === 'sqlite' ? ' INDEXED BY sends_owner_in_flight' : ''} SET outcome = 'unknown', error = $1, finished_at = $2 WHERE outcome = 'in_flight' AND created_at < $3`;

export function createJournal(db: Database, instanceId: string) {
  const write = groupCommit(db);
  const claimSql = `INSERT INTO sends (id, user_id, sent_by, idem_key, fingerprint, channel, customer_name, contact_masked,
                        phone_hash, email_hash, outcome, owner_pid, owner_instance, created_at, location)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'in_flight', $11, $12, $13, $14)
     ON CONFLICT (user_id, idem_key) WHERE idem_key IS NOT NULL DO NOTHING`;
  const byKey = db.prepare(
    `SELECT id, fingerprint, location, outcome, http_status, response_type, response_body, created_at
       FROM sends WHERE user_id = $1 AND idem_key = $2`,
  );
  // Two statements rather than one with `idem_key = CASE …`: assigning the key column, even to
  // itself, rewrites its unique index entry — a page of the WAL on every send for nothing.
  const finishColumns = `outcome = $1, http_status = $2, request_id = $3, status = $4, review_link = $5, warning = $6,
            error = $7, response_type = $8, response_body = $9, finished_at = $10`;
  const finishSql = `UPDATE sends SET ${finishColumns} WHERE id = $11 AND outcome = 'in_flight'`;
  const finishReleasingSql = `UPDATE sends SET ${finishColumns}, idem_key = NULL WHERE id = $11 AND outcome = 'in_flight'`;
  const orphanInstances = db.prepare(
    `UPDATE sends SET outcome = 'unknown', error = $1, finished_at = $2
      WHERE outcome = 'in_flight' AND owner_instance = $3`,
  );
  // Entries claimed before sends carried an instance id: left by a BFF of an older version.
  const orphanUnowned = db.prepare(
    `UPDATE sends SET outcome = 'unknown', error = $1, finished_at = $2
      WHERE outcome = 'in_flight' AND owner_instance IS NULL`,
  );
  const orphanPid = db.prepare(
    `UPDATE sends SET outcome = 'unknown', error = $1, finished_at = $2
      WHERE outcome = 'in_flight' AND owner_instance = $3 AND owner_pid = $4`,
  );
  const orphanStale = db.prepare(orphanStaleSql(db.dialect));
  const forgetKeys = db.prepare(
    'UPDATE sends SET idem_key = NULL, response_body = NULL WHERE idem_key IS NOT NULL AND created_at < $1',
  );
  const dropOld = db.prepare('DELETE FROM sends WHERE created_at < $1');

  // Ids are time-ordered (UUIDv7), so `id DESC` breaks a tie of created_at as insertion order would.
  const listColumns = `id, created_at, finished_at, sent_by, channel, customer_name, contact_masked, outcome,
                       http_status, request_id, status, review_link, warning, error`;
  // A location's history: the sends bound to its id (never to a slug a removed location had).
  const at = 'location = $1';
  const listAll = db.prepare(
    `SELECT ${listColumns} FROM sends WHERE ${at} ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
  );
  const countAll = db.prepare(`SELECT COUNT(*) AS n FROM sends WHERE ${at}`);
  const listPhone = db.prepare(
    `SELECT ${listColumns} FROM sends WHERE ${at} AND phone_hash = $2 ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
  );
  const countPhone = db.prepare(`SELECT COUNT(*) AS n FROM sends WHERE ${at} AND phone_hash = $2`);
  // An address is looked up under its contact key's hash and, for rows journaled before it, the
  // lower-cased address's (contact.ts): the same hash twice for most addresses.
  const listEmail = db.prepare(
    `SELECT ${listColumns} FROM sends WHERE ${at} AND email_hash IN ($2, $3) ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
  );
  const countEmail = db.prepare(`SELECT COUNT(*) AS n FROM sends WHERE ${at} AND email_hash IN ($2, $3)`);
  const countOf = async (
    statement: { get<T>(...p: (string | number)[]): Promise<T | undefined> },
    ...params: string[]
  ) => Number((await statement.get<{ n: number }>(...params))?.n ?? 0);

  const toEntry = (row: Row): SendHistoryEntry => ({
    id: row.id,
    createdAt: isoTime(row.created_at),
    finishedAt: isoTime(row.finished_at),
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
    /** The BFF instance whose lease guards this journal's in-flight entries. */
    instanceId,

    /**
     * Claims the key. Resolves, once committed, with the new entry's id, or null when the key is
     * already in the journal.
     */
    claim(input: ClaimInput): Promise<string | null> {
      const id = timeOrderedId();
      return write(async (q) => {
        const result = await q.run(
          claimSql,
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
          instanceId,
          Date.now(),
          input.location,
        );
        return result.changes === 1 ? id : null;
      });
    },

    async find(userId: string, key: string): Promise<JournalEntry | null> {
      const row = await byKey.get<KeyRow>(userId, key);
      if (!row) return null;
      return {
        id: row.id,
        fingerprint: row.fingerprint,
        location: row.location,
        outcome: row.outcome,
        httpStatus: row.http_status,
        responseType: row.response_type,
        responseBody: row.response_body === null ? null : new Uint8Array(row.response_body),
        createdAt: row.created_at,
      };
    },

    /** Records the outcome; resolves once it is committed. */
    finish(id: string, result: Finish): Promise<void> {
      return write(async (q) => {
        await q.run(
          result.releaseKey ? finishReleasingSql : finishSql,
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

    /**
     * The in-flight entries of BFF instances that stopped (their leases ran out, or this is the
     * same instance id starting again) become unknown: nobody waits on them any more.
     */
    async orphanInstances(ids: readonly string[], now = Date.now()): Promise<number> {
      let changed = 0;
      for (const other of ids) changed += (await orphanInstances.run(ORPHANED, now, other)).changes;
      return changed;
    },

    /** At start: in-flight entries a BFF of an older version left (no instance id) become unknown. */
    async orphanUnowned(now = Date.now()): Promise<number> {
      return (await orphanUnowned.run(ORPHANED, now)).changes;
    },

    /** A worker process of this instance died: its in-flight sends can no longer be finished. */
    async orphanProcess(pid: number, now = Date.now()): Promise<number> {
      return (await orphanPid.run(ORPHANED, now, instanceId, pid)).changes;
    },

    /** In-flight entries older than the upstream timeout (plus a margin) cannot still be waiting. */
    async orphanStale(maxAgeMs: number, now = Date.now()): Promise<number> {
      return (await orphanStale.run(STALE, now, now - maxAgeMs)).changes;
    },

    /** Forgets keys (and the replay bodies) past their retention; drops history past its own. */
    async cleanup(retentionMs: number, historyMs: number, now = Date.now()): Promise<void> {
      await forgetKeys.run(now - retentionMs);
      await dropOld.run(now - historyMs);
    },

    /** One location's sends (by its id), newest first, all or to one contact. */
    async list(query: {
      location: string;
      page: number;
      limit: number;
      phoneHash?: string;
      emailHashes?: readonly string[];
    }) {
      const { location } = query;
      const offset = (query.page - 1) * query.limit;
      let rows: Row[];
      let total: number;
      if (query.phoneHash !== undefined) {
        rows = await listPhone.all<Row>(location, query.phoneHash, query.limit, offset);
        total = await countOf(countPhone, location, query.phoneHash);
      } else if (query.emailHashes !== undefined && query.emailHashes.length > 0) {
        const [current, legacy = current] = query.emailHashes as [string, string?];
        rows = await listEmail.all<Row>(location, current, legacy, query.limit, offset);
        total = await countOf(countEmail, location, current, legacy);
      } else {
        rows = await listAll.all<Row>(location, query.limit, offset);
        total = await countOf(countAll, location);
      }
      return { total, sends: rows.map(toEntry) };
    },
  };
}
export type Journal = ReturnType<typeof createJournal>;
