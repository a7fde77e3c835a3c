import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { closeScope, openScope, runInScope, type TxScope } from '../tx-context.ts';
import type { DbLogger, LockKey, Transaction } from '../types.ts';

// Database.transactionTogether on PostgreSQL (docs/decisions/0023-sends-share-a-commit.md).
// Callers that arrive while a connection is being found form one group. The group's BEGIN, its
// members' locks (sorted: no two groups wait on each other in a circle), every member's
// statements and the COMMIT leave in one write and are answered in one read: one round trip and
// one commit for the group, where each member alone would take two round trips and a commit.
// A member's refusal is an error raised by one of its statements, so the server itself rolls the
// group back (COMMIT then answers ROLLBACK); every member then runs again alone, and gets the
// answer it would have had by itself.

/** The most members in one group: their statements leave in one write. */
const GROUP_LIMIT = 64;
/** An advisory lock held to the transaction's end, on the key `namespace:key` (a named statement). */
export const LOCK = {
  name: 'rd_advisory_xact_lock',
  text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
};
export const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected
const RETRIES = 3;

type Member = {
  fn: (tx: Transaction) => Promise<unknown>;
  locks: LockKey[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  attempt: number;
};

export type TogetherHost = {
  /** The database object: a member's statements find their transaction by it. */
  owner: object;
  connect(): Promise<pg.PoolClient>;
  /** The transaction handle the members get, on the group's connection. */
  handle(client: pg.PoolClient, scope: TxScope<Transaction>): Transaction;
  logger: DbLogger;
};

export class PostgresTogether {
  readonly #host: TogetherHost;
  /** The group taking members: its connection has not come yet. */
  #open: Member[] | null = null;

  constructor(host: TogetherHost) {
    this.#host = host;
  }

  join<T>(fn: (tx: Transaction) => Promise<T>, locks: LockKey[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const member: Member = { fn, locks, resolve: resolve as Member['resolve'], reject, attempt: 0 };
      if (this.#open !== null && this.#open.length < GROUP_LIMIT) this.#open.push(member);
      else {
        this.#open = [member];
        this.#start(this.#open);
      }
    });
  }

  /**
   * Runs a group once a pooled connection is free; until then the open group takes members. (A
   * limit on groups below the pool's size was measured: fewer, larger groups did not send more.)
   */
  #start(group: Member[]): void {
    const close = () => {
      if (this.#open === group) this.#open = null;
    };
    this.#host.connect().then(
      (client) => {
        close();
        return this.#run(client, group);
      },
      (error) => {
        close();
        for (const member of group) member.reject(error);
      },
    );
  }

  async #run(client: pg.PoolClient, group: Member[]): Promise<void> {
    const scope = openScope<Transaction>(this.#host.owner, (own) => this.#host.handle(client, own));
    const quiet = (p: Promise<unknown>) => {
      p.catch(() => {});
      return p;
    };
    const begun = quiet(client.query('BEGIN'));
    const locks = lockKeys(group.flatMap((m) => m.locks));
    const locked = locks.map((key) => quiet(client.query({ ...LOCK, values: [key] })));
    const results = group.map((member) =>
      runInScope(scope, async () => member.fn(scope.handle)).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
    );
    // Everything the members issued is already queued on the connection: the COMMIT follows it
    // in the same write, and a statement issued from now on is a mistake (tx-context.ts).
    scope.sealed = true;
    let committed: pg.QueryResult;
    try {
      committed = await client.query('COMMIT');
    } catch (error) {
      // The connection failed: whether the COMMIT was applied is unknown, so nothing runs again.
      closeScope(scope, false);
      client.release(error as Error);
      await Promise.all(results);
      if (retryable(error)) this.#again(group);
      else for (const member of group) member.reject(error);
      return;
    }
    const outcomes = await Promise.all(results);
    const ok = committed.command === 'COMMIT';
    closeScope(scope, ok);
    client.release();
    if (ok) {
      outcomes.forEach((outcome, i) => {
        const member = group[i]!;
        if (outcome.ok) member.resolve(outcome.value);
        else {
          // Its writes were committed: its function failed without a statement failing.
          this.#host.logger.warn({ err: outcome.error }, 'A transaction member failed after its commit');
          member.reject(outcome.error);
        }
      });
      return;
    }
    if (group.length > 1) {
      this.#again(group);
      return;
    }
    // Alone, the member's own failure is its answer (a deadlock is tried again, as transaction()).
    const [member] = group;
    const [outcome] = outcomes;
    const failure = outcome!.ok ? await firstFailure([begun, ...locked]) : outcome!.error;
    if (retryable(failure) && member!.attempt < RETRIES) {
      member!.attempt++;
      this.#host.logger.warn({ code: (failure as { code?: string }).code }, 'PostgreSQL transaction retried');
      await sleep(Math.floor(Math.random() * 10 * member!.attempt));
      this.#start([member!]);
    } else member!.reject(failure);
  }

  /** Runs each member of a failed group again, alone. */
  #again(group: Member[]): void {
    for (const member of group) this.#start([member]);
  }
}

/** The keys of these locks, each once, in the one order every transaction takes them. */
export function lockKeys(locks: LockKey[]): string[] {
  return [...new Set(locks.map((l) => `${l.namespace}:${l.key}`))].sort();
}

function retryable(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code !== undefined && RETRYABLE.has(code);
}

async function firstFailure(statements: Promise<unknown>[]): Promise<unknown> {
  for (const statement of statements) {
    try {
      await statement;
    } catch (error) {
      return error;
    }
  }
  return new Error('The transaction was rolled back');
}
