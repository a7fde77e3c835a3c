import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { StartupError } from '../../startup-error.ts';
import {
  closeScope,
  currentScope,
  lateStatement,
  openScope,
  runInScope,
  type TxScope,
} from '../tx-context.ts';
import {
  type Database,
  type DbLogger,
  type ListenOptions,
  type LockKey,
  type PoolStats,
  type Row,
  type RunResult,
  type SqlValue,
  type Statement,
  type Subscription,
  silentLogger,
  type Transaction,
  type TransactionOptions,
} from '../types.ts';
import { PostgresListener } from './listener.ts';
import { redactUrl, SESSION_OPTIONS, typeParsers } from './session.ts';
import { LOCK, lockKeys, PostgresTogether, RETRYABLE } from './together.ts';
import { coalesceWrites } from './writes.ts';

// PostgreSQL through a `pg` Pool. Statements outside a transaction take any pooled connection; a
// transaction holds one connection from BEGIN to COMMIT, and the statements of its async context
// run on it (tx-context.ts). See docs/decisions/0014-postgres-client.md for why `pg`.

export type PostgresOptions = {
  /** postgres://user:password@host:port/database */
  url: string;
  /** The setting that chose the URL, named in a refusal to start. */
  variable?: string;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  logger?: DbLogger;
  /** Shown in pg_stat_activity, so an operator can tell the services' connections apart. */
  applicationName?: string;
  /** How long to keep trying while the server refuses connections at start (default 10 s). */
  startupWaitMs?: number;
};

const BEGIN: Record<NonNullable<TransactionOptions['isolation']>, string> = {
  'read committed': 'BEGIN',
  'repeatable read': 'BEGIN ISOLATION LEVEL REPEATABLE READ',
  serializable: 'BEGIN ISOLATION LEVEL SERIALIZABLE',
};

export async function openPostgres(options: PostgresOptions): Promise<PostgresDatabase> {
  const db = new PostgresDatabase(options);
  await db.ready(options.startupWaitMs ?? 10_000, options.variable);
  return db;
}

type Runner = { query: pg.Pool['query'] };

export class PostgresDatabase implements Database {
  readonly dialect = 'postgres' as const;
  readonly description: string;
  readonly #pool: pg.Pool;
  readonly #logger: DbLogger;
  readonly #listener: PostgresListener;
  readonly #together: PostgresTogether;

  constructor(options: PostgresOptions) {
    this.description = redactUrl(options.url);
    this.#logger = options.logger ?? silentLogger;
    const config: pg.PoolConfig = {
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Statements issued together (a transaction's BEGIN and its first statement, the writes of
      // a Promise.all) leave in one write and are answered in one read, instead of one round
      // trip each; see postgres-writes.ts.
      pipeline: true,
      types: typeParsers,
      application_name: options.applicationName ?? 'review-desk',
      options: SESSION_OPTIONS,
      // Waiting longer than this for a free connection is an error, not a hang.
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
    };
    this.#pool = new pg.Pool(config);
    // An idle connection that breaks (a server restart) is replaced on next use; without a
    // listener the error would end the process.
    this.#pool.on('error', (error) => this.#logger.warn({ err: error }, 'A PostgreSQL connection failed'));
    this.#pool.on('connect', coalesceWrites);
    this.#listener = new PostgresListener(config, this.#logger);
    this.#together = new PostgresTogether({
      owner: this,
      connect: () => this.#pool.connect(),
      handle: (client, scope) => new PostgresTransaction(this, client, scope as TxScope<PostgresTransaction>),
      logger: this.#logger,
    });
  }

  /** Waits until the server answers (it may be starting beside us), else refuses to start. */
  async ready(waitMs: number, variable?: string): Promise<void> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        await this.#pool.query('SELECT 1');
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        const transient = code === 'ECONNREFUSED' || code === '57P03' || code === 'ETIMEDOUT';
        if (transient && Date.now() < deadline) {
          await sleep(250);
          continue;
        }
        await this.#pool.end().catch(() => {});
        const where = variable ? ` (${variable})` : '';
        throw new StartupError(
          `Cannot connect to PostgreSQL at ${this.description}${where}: ${(error as Error).message}.`,
          { ...(variable ? { variable } : {}), cause: error },
        );
      }
    }
  }

  /** The connection the calling code must use: its transaction's, else the pool. */
  #runner(): Runner {
    return currentScope<PostgresTransaction>(this)?.handle.client ?? this.#pool;
  }

  all<T = Row>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return query(this.#runner(), sql, params).then((r) => r.rows as T[]);
  }

  get<T = Row>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return query(this.#runner(), sql, params).then((r) => r.rows[0] as T | undefined);
  }

  run(sql: string, ...params: SqlValue[]): Promise<RunResult> {
    return query(this.#runner(), sql, params).then((r) => ({ changes: r.rowCount ?? 0 }));
  }

  async exec(sql: string): Promise<void> {
    await this.#runner().query(sql);
  }

  prepare(sql: string): Statement {
    const name = statementName(sql);
    const on = (): Runner => this.#runner();
    return {
      sql,
      all: <T = Row>(...params: SqlValue[]) => query(on(), sql, params, name).then((r) => r.rows as T[]),
      get: <T = Row>(...params: SqlValue[]) =>
        query(on(), sql, params, name).then((r) => r.rows[0] as T | undefined),
      run: (...params: SqlValue[]) =>
        query(on(), sql, params, name).then((r) => ({ changes: r.rowCount ?? 0 })),
    };
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const outer = currentScope<PostgresTransaction>(this);
    if (outer !== undefined) return fn(outer.handle);
    const retries = options.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const client = await this.#pool.connect();
      const scope = openScope<PostgresTransaction>(this, (own) => new PostgresTransaction(this, client, own));
      let committed = false;
      let broken: Error | undefined;
      try {
        // BEGIN goes out with the transaction's first statement; if it failed, so does that
        // statement, and the answer below reports it.
        const begun = client.query(BEGIN[options.isolation ?? 'read committed']);
        begun.catch(() => {});
        const result = await runInScope(scope, () => fn(scope.handle));
        await begun;
        await client.query('COMMIT');
        committed = true;
        return result;
      } catch (error) {
        closeScope(scope, false);
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError as Error; // the connection is unusable: drop it from the pool
        }
        const code = (error as { code?: string }).code;
        if (attempt >= retries || code === undefined || !RETRYABLE.has(code)) throw error;
        this.#logger.warn({ code, attempt: attempt + 1 }, 'PostgreSQL transaction retried');
      } finally {
        closeScope(scope, committed);
        client.release(broken);
      }
      // Two transactions that deadlocked would likely collide again if retried in step.
      await sleep(Math.floor(Math.random() * 10 * (attempt + 1)));
    }
  }

  transactionTogether<T>(fn: (tx: Transaction) => Promise<T>, locks: LockKey[] = []): Promise<T> {
    const outer = currentScope<PostgresTransaction>(this);
    if (outer !== undefined) return outer.handle.transactionTogether(fn, locks);
    return this.#together.join(fn, locks);
  }

  async notify(channel: string, payload: string): Promise<void> {
    // Inside a transaction NOTIFY is queued by the server and delivered at COMMIT.
    await query(this.#runner(), 'SELECT pg_notify($1, $2)', [channel, payload]);
  }

  listen(
    channel: string,
    onMessage: (payload: string) => void,
    options: ListenOptions = {},
  ): Promise<Subscription> {
    return this.#listener.listen(channel, onMessage, options);
  }

  stats(): PoolStats {
    return { size: this.#pool.totalCount, idle: this.#pool.idleCount, waiting: this.#pool.waitingCount };
  }

  async close(): Promise<void> {
    await this.#listener.close();
    await this.#pool.end();
  }
}

/** A transaction's own handle: runs on the connection it holds, and only while it is open. */
class PostgresTransaction implements Transaction {
  readonly dialect = 'postgres' as const;
  readonly client: pg.PoolClient;
  readonly #db: PostgresDatabase;
  readonly #scope: TxScope<PostgresTransaction>;

  constructor(db: PostgresDatabase, client: pg.PoolClient, scope: TxScope<PostgresTransaction>) {
    this.#db = db;
    this.client = client;
    this.#scope = scope;
  }

  #on(): Runner {
    if (!this.#scope.active) {
      throw new Error('The transaction has already ended: use its handle only inside its function');
    }
    if (this.#scope.sealed) throw lateStatement();
    return this.client;
  }

  async all<T = Row>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return (await query(this.#on(), sql, params)).rows as T[];
  }

  async get<T = Row>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return (await query(this.#on(), sql, params)).rows[0] as T | undefined;
  }

  async run(sql: string, ...params: SqlValue[]): Promise<RunResult> {
    return { changes: (await query(this.#on(), sql, params)).rowCount ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    await this.#on().query(sql);
  }

  prepare(sql: string): Statement {
    return this.#db.prepare(sql);
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    this.#on();
    return fn(this);
  }

  /** Inside a transaction: its locks (sorted, issued now), then fn. */
  transactionTogether<T>(fn: (tx: Transaction) => Promise<T>, locks: LockKey[] = []): Promise<T> {
    const taken = lockKeys(locks).map((key) => query(this.#on(), LOCK.text, [key], LOCK.name));
    return Promise.all([...taken, fn(this)]).then((all) => all.at(-1) as T);
  }

  async notify(channel: string, payload: string): Promise<void> {
    await query(this.#on(), 'SELECT pg_notify($1, $2)', [channel, payload]);
  }

  async lock(namespace: string, key: string | number): Promise<void> {
    await query(this.#on(), LOCK.text, [`${namespace}:${key}`], LOCK.name);
  }
}

function query(on: Runner, text: string, values: SqlValue[], name?: string): Promise<pg.QueryResult> {
  return on.query(name === undefined ? { text, values } : { name, text, values });
}

/** A stable name per statement text: the same SQL is prepared once per connection. */
function statementName(sql: string): string {
  return `rd_${createHash('sha1').update(sql).digest('base64url').slice(0, 20)}`;
}
