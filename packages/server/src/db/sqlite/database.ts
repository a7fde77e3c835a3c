import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { ensurePrivateDir, makePrivate, sqliteFiles } from '../../files.ts';
import { StartupError } from '../../startup-error.ts';
import { currentScope, openScope, runInScope, type TxScope } from '../tx-context.ts';
import {
  type Database,
  type DbLogger,
  type ListenOptions,
  type PoolStats,
  type Row,
  type RunResult,
  type SqlValue,
  type Statement,
  type Subscription,
  silentLogger,
  type Transaction,
} from '../types.ts';
import { rolledBack, SharedCommits } from './commit-batch.ts';
import { Gate } from './gate.ts';
import { busFor, type LocalBus } from './local-bus.ts';
import { toSqlitePlaceholders } from './placeholders.ts';

// SQLite through node:sqlite: one connection per process. Statements run synchronously and return
// settled promises; a transaction takes the connection's gate (see gate.ts) for its whole life.

export type SqliteOptions = {
  /** The database file, or ':memory:'. Its folder is created 0700 and its files kept 0600. */
  file: string;
  /** The setting that chose the file, named in a refusal to start. */
  variable?: string;
  logger?: DbLogger;
  /** Deterministic SQL functions of one argument a migration needs (SQLite has no such built-in). */
  functions?: Record<string, (value: unknown) => SqlValue>;
};

const STATEMENT_CACHE_MAX = 1_000;

export function openSqlite(options: SqliteOptions): SqliteDatabase {
  return new SqliteDatabase(options);
}

export class SqliteDatabase implements Database {
  readonly dialect = 'sqlite' as const;
  readonly description: string;
  readonly #raw: DatabaseSync;
  readonly #gate = new Gate();
  /** Transactions close together share one BEGIN … COMMIT. */
  readonly #commits: SharedCommits;
  readonly #statements = new Map<string, StatementSync>();
  readonly #bus: LocalBus;
  readonly #logger: DbLogger;
  readonly #file: string;
  /** What a transaction's handle runs its statements on. */
  readonly #connection: Connection = {
    compile: (sql) => this.#compile(sql),
    exec: (sql) => this.#raw.exec(sql),
    // An error that ends the transaction (disk full, I/O) makes SQLite roll it back; what follows
    // must fail too, not run outside it on its own and commit.
    inside: (work) => (this.#raw.isTransaction ? settle(work) : Promise.reject(rolledBack())),
  };

  constructor(options: SqliteOptions) {
    const memory = options.file === ':memory:';
    this.#file = memory ? options.file : path.resolve(options.file);
    this.description = this.#file;
    this.#logger = options.logger ?? silentLogger;
    if (!memory) ensurePrivateDir(path.dirname(this.#file), options.variable);
    try {
      this.#raw = new DatabaseSync(this.#file, { timeout: 5_000, enableForeignKeyConstraints: true });
      if (!memory) makePrivate(this.#file);
      configure(this.#raw, memory);
      for (const [name, fn] of Object.entries(options.functions ?? {}))
        this.#raw.function(name, { deterministic: true }, fn as (value: unknown) => SqlValue);
    } catch (error) {
      const where = options.variable ? ` (${options.variable})` : '';
      throw new StartupError(`Cannot open the database ${this.#file}${where}: ${(error as Error).message}.`, {
        ...(options.variable ? { variable: options.variable } : {}),
        cause: error,
      });
    }
    this.#commits = new SharedCommits(this.#raw, this.#gate);
    // The WAL and shared-memory files exist now; SQLite gives them the main file's mode, but an
    // older version may have left them readable by others.
    if (!memory) for (const file of sqliteFiles(this.#file)) makePrivate(file);
    this.#bus = busFor(this.#file);
  }

  /** The compiled statement for `sql` (written with $n placeholders), from the cache. */
  #compile(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#raw.prepare(toSqlitePlaceholders(sql));
      if (this.#statements.size >= STATEMENT_CACHE_MAX) {
        this.#statements.delete(this.#statements.keys().next().value as string);
      }
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs synchronous work on the connection: now when nothing holds the gate or when the caller
   * is inside the transaction that holds it; otherwise once that transaction (and those queued
   * before this call) have finished.
   */
  #execute<T>(work: () => T): Promise<T> {
    if (this.#gate.free) return settle(work);
    if (this.#gate.held && currentScope(this) !== undefined) return this.#connection.inside(work);
    return this.#gate.whenFree(work);
  }

  all<T = Row>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return this.#execute(() => this.#compile(sql).all(...params) as T[]);
  }

  get<T = Row>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return this.#execute(() => this.#compile(sql).get(...params) as T | undefined);
  }

  run(sql: string, ...params: SqlValue[]): Promise<RunResult> {
    return this.#execute(() => ({ changes: Number(this.#compile(sql).run(...params).changes) }));
  }

  exec(sql: string): Promise<void> {
    return this.#execute(() => this.#raw.exec(sql));
  }

  prepare(sql: string): Statement {
    const compiled = this.#compile(sql);
    return {
      sql,
      all: <T = Row>(...params: SqlValue[]) => this.#execute(() => compiled.all(...params) as T[]),
      get: <T = Row>(...params: SqlValue[]) => this.#execute(() => compiled.get(...params) as T | undefined),
      run: (...params: SqlValue[]) =>
        this.#execute(() => ({ changes: Number(compiled.run(...params).changes) })),
    };
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const outer = currentScope<Transaction>(this);
    if (outer !== undefined) return fn(outer.handle);
    // Joins the batch still open, else begins one (sqlite-commit-batch.ts).
    const batch = await this.#commits.enter();
    const scope = openScope<Transaction>(this, (own) => new SqliteTransaction(this, this.#connection, own));
    const { settled } = await batch.run(scope, () => runInScope(scope, () => fn(scope.handle)));
    this.#commits.leave(batch);
    return settled;
  }

  /** One writer at a time already shares a commit among the transactions of a turn. */
  transactionTogether<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.transaction(fn);
  }

  notify(channel: string, payload: string): Promise<void> {
    const scope = currentScope(this);
    if (scope === undefined) this.#bus.publish(channel, payload);
    else {
      scope.afterCommit ??= [];
      scope.afterCommit.push(() => this.#bus.publish(channel, payload));
    }
    return Promise.resolve();
  }

  async listen(
    channel: string,
    onMessage: (payload: string) => void,
    _options?: ListenOptions,
  ): Promise<Subscription> {
    return this.#bus.listen(channel, onMessage, (error) =>
      this.#logger.warn({ err: error, channel }, 'A database notification listener failed'),
    );
  }

  stats(): PoolStats {
    return { size: 1, idle: this.#gate.held ? 0 : 1, waiting: this.#gate.waiting };
  }

  /**
   * Waits for open transactions, then closes. `checkpoint` copies the WAL into the main file (a
   * server's graceful stop); a short-lived CLI leaves that to SQLite rather than wait on readers.
   */
  async close(options: { checkpoint?: boolean } = {}): Promise<void> {
    if (!this.#raw.isOpen) return;
    const turn = this.#gate.acquire();
    if (turn !== undefined) await turn;
    try {
      this.#raw.exec('PRAGMA optimize');
      if (options.checkpoint && this.#file !== ':memory:') this.#raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // Another process may hold the file; closing is still safe.
    }
    this.#statements.clear();
    this.#raw.close();
    this.#gate.release();
  }
}

type Connection = {
  compile(sql: string): StatementSync;
  exec(sql: string): void;
  /** Runs work inside the open transaction; refuses when SQLite has already rolled it back. */
  inside<T>(work: () => T): Promise<T>;
};

function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A transaction's own handle: runs on the connection it holds, and only while it is open. */
class SqliteTransaction implements Transaction {
  readonly dialect = 'sqlite' as const;
  readonly #db: SqliteDatabase;
  readonly #connection: Connection;
  readonly #scope: TxScope<Transaction>;

  constructor(db: SqliteDatabase, connection: Connection, scope: TxScope<Transaction>) {
    this.#db = db;
    this.#connection = connection;
    this.#scope = scope;
  }

  #now<T>(work: () => T): Promise<T> {
    return this.#scope.active ? this.#connection.inside(work) : Promise.reject(ended());
  }

  all<T = Row>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return this.#now(() => this.#connection.compile(sql).all(...params) as T[]);
  }

  get<T = Row>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return this.#now(() => this.#connection.compile(sql).get(...params) as T | undefined);
  }

  run(sql: string, ...params: SqlValue[]): Promise<RunResult> {
    return this.#now(() => ({ changes: Number(this.#connection.compile(sql).run(...params).changes) }));
  }

  exec(sql: string): Promise<void> {
    return this.#now(() => this.#connection.exec(sql));
  }

  prepare(sql: string): Statement {
    return this.#db.prepare(sql);
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#scope.active ? fn(this) : Promise.reject(ended());
  }

  transactionTogether<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.transaction(fn);
  }

  notify(channel: string, payload: string): Promise<void> {
    if (!this.#scope.active) return Promise.reject(ended());
    return runInScope(this.#scope, () => this.#db.notify(channel, payload));
  }

  lock(_namespace: string, _key: string | number): Promise<void> {
    return this.#now(() => undefined);
  }
}

export function ended(): Error {
  return new Error('The transaction has already ended: use its handle only inside its function');
}

function configure(db: DatabaseSync, memory: boolean): void {
  // WAL: readers never block the writer, so the CLI can write while the server reads and writes
  // the same file. NORMAL sync is durable across application crashes (an OS crash may lose the
  // last commits, never corrupt the file); see docs/decisions/0011-bff-journal-group-commit.md.
  if (!memory) db.exec('PRAGMA journal_mode = WAL');
  db.exec(`
    PRAGMA synchronous = NORMAL;
    PRAGMA foreign_keys = ON;
    PRAGMA temp_store = MEMORY;
    PRAGMA cache_size = -65536;
    PRAGMA mmap_size = 268435456;
  `);
  // Checkpoint every ~40 MB of WAL rather than 4 MB: hot pages (roll-ups, table tails, the
  // journal's indexes) are written back once per checkpoint instead of ten times.
  if (!memory) db.exec('PRAGMA wal_autocheckpoint = 10000');
}
