import type { Queryable, SqlValue } from '@review-desk/server/db/types';

// A send's refusals, found by statements in the send's transaction. On PostgreSQL the statement
// that finds one raises it (rd_refuse, migration 005), so the server rolls the whole transaction
// back without waiting for the service to read the answer, and the COMMIT can be sent behind the
// statements (Database.transactionTogether). On SQLite the same check rejects in the store; the
// send's transaction rolls back as it ends. Either way the caller sees a Refused.

/** `already_requested`: the send's externalId made a request before (requests/origins.ts). */
export type Refusal = 'opted_out' | 'frequency_capped' | 'allowance_exceeded' | 'already_requested';

/** A send refused by one of its checks; nothing of the send is kept. */
export class Refused extends Error {
  readonly reason: Refusal;
  constructor(reason: Refusal) {
    super(`Refused: ${reason}`);
    this.reason = reason;
  }
}

/** SQLSTATE of rd_refuse. */
const REFUSED = 'RD001';
const REASONS = new Set<string>(['opted_out', 'frequency_capped', 'allowance_exceeded', 'already_requested']);

/** The refusal a statement raised, as a Refused; any other error as it is. */
function asRefused(error: unknown): unknown {
  const { code, message } = error as { code?: string; message?: string };
  return code === REFUSED && message !== undefined && REASONS.has(message)
    ? new Refused(message as Refusal)
    : error;
}

/**
 * A check that refuses the send when `sql` finds a row. On PostgreSQL `sql` is wrapped so the
 * row itself raises the refusal.
 */
export function refuseWhenFound(db: Queryable, reason: Refusal, sql: string) {
  return check(
    db,
    reason,
    db.dialect === 'postgres' ? `SELECT rd_refuse('${reason}') FROM (${sql}) AS found LIMIT 1` : sql,
    (row) => row !== undefined,
  );
}

/**
 * A check that refuses the send unless `write ... RETURNING` returns a row (a conditional
 * UPSERT that took something). On PostgreSQL the write runs in a CTE and the missing row raises
 * the refusal.
 */
export function refuseUnlessWritten(db: Queryable, reason: Refusal, write: string) {
  return db.dialect === 'postgres'
    ? check(
        db,
        reason,
        `WITH written AS (${write}) SELECT rd_refuse('${reason}') WHERE NOT EXISTS (SELECT 1 FROM written)`,
        () => false,
      )
    : check(db, reason, write, (row) => row === undefined);
}

/** The statement as a check: rejects with a Refused when `refuses(row)`, or when it raised one. */
function check(db: Queryable, reason: Refusal, sql: string, refuses: (row: unknown) => boolean) {
  const statement = db.prepare(sql);
  return (...params: SqlValue[]): Promise<void> =>
    statement.get(...params).then(
      (row) => {
        if (refuses(row)) throw new Refused(reason);
      },
      (error: unknown) => {
        throw asRefused(error);
      },
    );
}
