import type { Database } from '@review-desk/server/db/types';
import type { BulkCounts, BulkRow, BulkRowOutcome, SendRequest } from '@review-desk/shared';

// A list send's rows (table bulk_rows, component `bulk`): the worker's claim of the next row,
// each row's outcome, and the counts, pages and rate the job's view reads.

export type OpenRow = {
  index: number;
  generation: number;
  outcome: 'pending' | 'sending';
  send: SendRequest;
};

export type RowResult = {
  outcome: Exclude<BulkRowOutcome, 'pending'>;
  code?: string | null;
  detail?: string | null;
  requestId?: string | null;
};

type RowRow = {
  idx: number;
  generation: number;
  outcome: string;
  customer_name: string | null;
  customer_phone: string | null;
  customer_email: string | null;
  contact_masked: string;
  code: string | null;
  detail: string | null;
  request_id: string | null;
  finished_at: number | null;
};

const ROW_COLUMNS = `idx, generation, outcome, customer_name, customer_phone, customer_email, contact_masked,
  code, detail, request_id, finished_at`;

function toRow(row: RowRow): BulkRow {
  const outcome = row.outcome === 'sending' ? 'pending' : (row.outcome as BulkRowOutcome);
  return {
    index: Number(row.idx),
    customerName: row.customer_name,
    contact: row.contact_masked,
    outcome,
    code: row.code,
    detail: row.detail,
    requestId: row.request_id,
    finishedAt: row.finished_at === null ? null : new Date(Number(row.finished_at)).toISOString(),
  };
}

export function createBulkRows(db: Database, now: () => number = Date.now) {
  const countRows = db.prepare(
    'SELECT outcome, count(*) AS n FROM bulk_rows WHERE job_id = $1 GROUP BY outcome',
  );
  // One outcome per statement: each is a range of the (job_id, outcome, idx) index, read in idx
  // order. With `outcome IN (…)` the engine merged both ranges and sorted the whole list's open
  // rows for every row sent (a 10,000-row list slowed as it went).
  const nextWith = (outcome: 'pending' | 'sending') =>
    db.prepare(`SELECT ${ROW_COLUMNS} FROM bulk_rows
      WHERE job_id = $1 AND outcome = '${outcome}' ORDER BY idx LIMIT 1`);
  const nextSending = nextWith('sending');
  const nextPending = nextWith('pending');
  const claimRow = db.prepare(`UPDATE bulk_rows SET outcome = 'sending', claimed_by = $3
    WHERE job_id = $1 AND idx = $2
      AND (outcome = 'pending' OR (outcome = 'sending' AND claimed_by <> $3))`);
  const settleRow = db.prepare(`UPDATE bulk_rows SET outcome = $4, code = $5, detail = $6, request_id = $7,
      finished_at = $8, claimed_by = NULL
    WHERE job_id = $1 AND idx = $2 AND outcome = 'sending' AND claimed_by = $3`);
  const releaseRow = db.prepare(`UPDATE bulk_rows SET outcome = 'pending', claimed_by = NULL
    WHERE job_id = $1 AND idx = $2 AND outcome = 'sending' AND claimed_by = $3`);
  // Rows that went (or may have gone) out since a time: what a daily cap counts.
  const sentSince = db.prepare(`SELECT count(*) AS n FROM bulk_rows
    WHERE job_id = $1 AND outcome IN ('sent', 'warning', 'unknown') AND finished_at >= $2`);
  const recent = db.prepare(`SELECT count(*) AS n, min(finished_at) AS first, max(finished_at) AS last
    FROM bulk_rows WHERE job_id = $1 AND finished_at >= $2 AND outcome IN ('sent', 'warning', 'refused', 'unknown')`);

  async function counts(id: string, total: number): Promise<BulkCounts> {
    const result: BulkCounts = {
      total,
      pending: 0,
      sent: 0,
      warning: 0,
      skipped: 0,
      refused: 0,
      failed: 0,
      unknown: 0,
    };
    for (const row of await countRows.all<{ outcome: string; n: number }>(id)) {
      const key = (row.outcome === 'sending' ? 'pending' : row.outcome) as keyof BulkCounts;
      result[key] += Number(row.n);
    }
    return result;
  }

  return {
    counts,

    async rows(id: string, page: number, limit: number): Promise<{ total: number; rows: BulkRow[] }> {
      const rows = await db.all<RowRow>(
        `SELECT ${ROW_COLUMNS} FROM bulk_rows WHERE job_id = $1 ORDER BY idx LIMIT $2 OFFSET $3`,
        id,
        limit,
        (page - 1) * limit,
      );
      const total = await db.get<{ n: number }>('SELECT count(*) AS n FROM bulk_rows WHERE job_id = $1', id);
      return { total: Number(total?.n ?? 0), rows: rows.map(toRow) };
    },

    /** Rows sent (or unknown) since `since`: a daily cap's count for the day starting then. */
    async sentSince(id: string, since: number): Promise<number> {
      return Number((await sentSince.get<{ n: number }>(id, since))?.n ?? 0);
    },

    /** Rows per minute over the last minute's finished rows (null before two). */
    async ratePerMinute(id: string): Promise<number | null> {
      const r = await recent.get<{ n: number; first: number | null; last: number | null }>(
        id,
        now() - 60_000,
      );
      const n = Number(r?.n ?? 0);
      if (n < 2 || r?.first == null || r.last == null || Number(r.last) === Number(r.first)) return null;
      return Math.round(((n - 1) * 60_000 * 10) / (Number(r.last) - Number(r.first))) / 10;
    },

    /** The first row not yet settled: pending, or claimed by a worker that did not finish it. */
    async nextOpen(id: string): Promise<OpenRow | null> {
      // A row left `sending` comes first: it is earlier than any pending one (rows go in order).
      const row = (await nextSending.get<RowRow>(id)) ?? (await nextPending.get<RowRow>(id));
      if (!row) return null;
      return {
        index: Number(row.idx),
        generation: Number(row.generation),
        outcome: row.outcome as 'pending' | 'sending',
        send: {
          channel: 'sms', // replaced with the job's channel by the caller
          ...(row.customer_name !== null ? { customerName: row.customer_name } : {}),
          ...(row.customer_phone !== null ? { customerPhone: row.customer_phone } : {}),
          ...(row.customer_email !== null ? { customerEmail: row.customer_email } : {}),
        },
      };
    },

    async claimRow(id: string, index: number, owner: string): Promise<boolean> {
      return (await claimRow.run(id, index, owner)).changes > 0;
    },

    /** Records a claimed row's outcome; false when another worker claimed it since. */
    async settleRow(id: string, index: number, owner: string, result: RowResult): Promise<boolean> {
      const changes = await settleRow.run(
        id,
        index,
        owner,
        result.outcome,
        result.code ?? null,
        result.detail ?? null,
        result.requestId ?? null,
        now(),
      );
      return changes.changes > 0;
    },

    /** A claimed row that sent nothing (429, a paused job) goes back to pending. */
    async releaseRow(id: string, index: number, owner: string): Promise<void> {
      await releaseRow.run(id, index, owner);
    },
  };
}
