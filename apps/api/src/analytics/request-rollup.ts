import type { Queryable } from '@review-desk/server/db/types';
import type { Channel } from '@review-desk/shared';

// The request_daily roll-up: finished requests (sent or failed) counted in the row of the UTC day
// they were created. Clicks and completions count only for sent requests, so a rate never
// exceeds 1. Every change keeps that invariant in the same transaction as the write it counts.
//
// A day is kept in up to ROLLUP_SLOTS rows that add up to it. On PostgreSQL each change adds to
// the slot of the connection that writes it (its server process id modulo ROLLUP_SLOTS), so
// concurrent sends, each in its own transaction on its own connection, do not wait on one row's
// lock until the other commits (two replicas' connections may share a slot now and then).
// SQLite has one writer at a time and always writes slot 0. Readers sum the slots
// (REQUEST_DAILY_SUMS).

export const REQUEST_ROLLUP_COLUMNS = [
  'total',
  'sent',
  'failed',
  'clicked',
  'completed',
  'feedback',
  'handoffs',
  'sms',
  'email',
  'both',
  'link',
] as const;

export type RequestRollupDelta = Record<(typeof REQUEST_ROLLUP_COLUMNS)[number], number>;

export const ROLLUP_SLOTS = 16;

/** `both` is a reserved word in PostgreSQL: always quoted. */
const column = (name: string) => (name === 'both' ? '"both"' : name);

/** The roll-up columns, as a column list. */
export const REQUEST_ROLLUP_COLUMN_LIST = REQUEST_ROLLUP_COLUMNS.map(column).join(', ');

/** Each roll-up column summed over a day's slots, named as the column. */
export const REQUEST_DAILY_SUMS = REQUEST_ROLLUP_COLUMNS.map(
  (c) => `coalesce(sum(${column(c)}), 0) AS ${column(c)}`,
).join(', ');

const upsert = (slot: string) => `INSERT INTO request_daily
  (business_id, day, slot, ${REQUEST_ROLLUP_COLUMN_LIST})
  VALUES ($1, $2, ${slot}, ${REQUEST_ROLLUP_COLUMNS.map((_, i) => `$${i + 3}`).join(', ')})
  ON CONFLICT (business_id, day, slot) DO UPDATE SET
  ${REQUEST_ROLLUP_COLUMNS.map((c) => `${column(c)} = request_daily.${column(c)} + excluded.${column(c)}`).join(', ')}`;

export function emptyRequestDelta(): RequestRollupDelta {
  return Object.fromEntries(REQUEST_ROLLUP_COLUMNS.map((c) => [c, 0])) as RequestRollupDelta;
}

type Finished = {
  status: 'sending' | 'sent' | 'failed';
  channel: Channel;
  clicked_at: number | null;
  feedback_at: number | null;
  handoff_at: number | null;
  completed_at: number | null;
};

/** What a finished request contributes to its day's roll-up. */
export function requestContribution(r: Finished, into = emptyRequestDelta()): RequestRollupDelta {
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

/** Adds a change to a day's roll-up (call in the transaction of the write it counts). */
export function requestRollup(db: Queryable) {
  const statement = db.prepare(
    upsert(db.dialect === 'postgres' ? `pg_backend_pid() % ${ROLLUP_SLOTS}` : '0'),
  );
  return (businessId: number, day: number, d: RequestRollupDelta): Promise<unknown> =>
    statement.run(businessId, day, ...REQUEST_ROLLUP_COLUMNS.map((c) => d[c]));
}
