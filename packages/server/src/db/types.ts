// The one interface both services' stores are written against, whichever engine is behind it.
// See docs/decisions/0012-database-layer.md for the rules a store follows (one module per table, SQL
// written once with $1…$n placeholders, per-dialect SQL only where the dialects really differ).

export type Dialect = 'sqlite' | 'postgres';

/**
 * A value bound to a placeholder. No booleans: store flags as integers 0/1 (what SQLite holds),
 * so a row reads the same from both engines.
 */
export type SqlValue = string | number | bigint | null | Uint8Array;

export type Row = Record<string, unknown>;

/** What a write reports: the number of rows it inserted, changed or deleted. Use RETURNING for ids. */
export type RunResult = { changes: number };

/** A statement whose SQL is fixed: prepared once per connection and reused. */
export interface Statement {
  readonly sql: string;
  all<T = Row>(...params: SqlValue[]): Promise<T[]>;
  get<T = Row>(...params: SqlValue[]): Promise<T | undefined>;
  run(...params: SqlValue[]): Promise<RunResult>;
}

export type TransactionOptions = {
  /**
   * PostgreSQL only: the isolation level (default READ COMMITTED). SQLite transactions are
   * always serializable (one writer at a time, BEGIN IMMEDIATE).
   */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  /**
   * PostgreSQL only: how many times a transaction that failed with a serialization failure
   * (40001) or a deadlock (40P01) is run again from the start (default 3). Set 0 when the
   * function does anything besides database statements, since it may run more than once.
   */
  retries?: number;
};

/**
 * What a store talks to: the database, or the transaction it is called inside. A statement issued
 * through the database from inside `transaction(fn)` (in fn's async context) joins that
 * transaction; one issued from anywhere else never does: on SQLite it waits until the
 * transaction ends, on PostgreSQL it runs on another pooled connection.
 */
export interface Queryable {
  readonly dialect: Dialect;
  all<T = Row>(sql: string, ...params: SqlValue[]): Promise<T[]>;
  get<T = Row>(sql: string, ...params: SqlValue[]): Promise<T | undefined>;
  run(sql: string, ...params: SqlValue[]): Promise<RunResult>;
  /** Runs a script of statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
  /**
   * A statement to keep for the life of the store. SQLite: compiled once. PostgreSQL: a named
   * prepared statement, parsed and planned once per pooled connection.
   */
  prepare(sql: string): Statement;
  /**
   * Runs fn in a transaction and commits when its promise resolves, rolls back when it rejects.
   * Called inside another transaction of the same database, fn joins it (no savepoint). fn must
   * await nothing but this database: on SQLite every other statement of the process waits for it.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Like `transaction`, for short writes many callers make at once (the send; the outbox's
   * receipts do not qualify, they decide on what they read): on PostgreSQL fn may share one transaction and COMMIT with the others issued
   * while a connection is found, and the COMMIT is sent right behind their statements, in the
   * same write. So fn must issue every statement before its first await, and anything that
   * must undo its writes has to be an error raised by a statement, not a decision taken on the
   * answers (docs/decisions/0023-sends-share-a-commit.md). The locks are taken first, in one
   * order for the whole group. When any member fails, the group is rolled back and each member
   * runs again alone. Inside a transaction, fn joins it.
   */
  transactionTogether<T>(fn: (tx: Transaction) => Promise<T>, locks?: LockKey[]): Promise<T>;
  /**
   * Sends `payload` to every listener of `channel` in every process on this database (PostgreSQL
   * NOTIFY; in-process on SQLite). Inside a transaction it is delivered when the transaction
   * commits, and not at all if it rolls back.
   */
  notify(channel: string, payload: string): Promise<void>;
}

/** A lock `transactionTogether` takes for its caller: see Transaction.lock. */
export type LockKey = { namespace: string; key: string };

export interface Transaction extends Queryable {
  /**
   * Holds a lock on (namespace, key) until the transaction ends, so writers of the same key run
   * one after another: a read-then-write on a per-business counter stays exact. PostgreSQL:
   * pg_advisory_xact_lock. SQLite: nothing to do, a transaction already excludes every writer.
   */
  lock(namespace: string, key: string | number): Promise<void>;
}

export type Subscription = { close(): Promise<void> };

export type ListenOptions = {
  /**
   * Called after the listening connection was lost and re-established: messages sent meanwhile
   * were missed, so a cache fed by them must be dropped.
   */
  onReconnect?: () => void;
};

/** For metrics and readiness: the pool's connections and who waits for one. */
export type PoolStats = {
  /** Connections open (SQLite: 1). */
  size: number;
  /** Of those, not in use. */
  idle: number;
  /** Calls waiting for a connection (SQLite: statements and transactions queued at its gate). */
  waiting: number;
};

export interface Database extends Queryable {
  /** Where the data lives, fit for logs and error messages (a PostgreSQL URL without its password). */
  readonly description: string;
  /** Runs onMessage for each payload sent to `channel`, in this process and (PostgreSQL) others. */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    options?: ListenOptions,
  ): Promise<Subscription>;
  stats(): PoolStats;
  /** Waits for open transactions, then closes every connection. */
  close(options?: { checkpoint?: boolean }): Promise<void>;
}

/** The logger shape the database layer reports to (pino's `warn(obj, msg)` fits). */
export type DbLogger = { warn(details: object, message: string): void };

export const silentLogger: DbLogger = { warn() {} };
