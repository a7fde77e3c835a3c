import type { DatabaseSync } from 'node:sqlite';
import { closeScope, type TxScope } from './tx-context.ts';

// Transactions queued for SQLite's one connection share a commit. SQLite runs one transaction at
// a time; when others are already waiting as one ends, it does not COMMIT yet: the next one runs
// inside the same BEGIN IMMEDIATE, in a savepoint of its own, and so on until none waits (or the
// batch is full). Then one COMMIT writes them all, and only then is each one's promise settled:
// nobody is answered before their writes are durable. A transaction that fails is rolled back to
// its savepoint, alone; an error that ends SQLite's transaction (disk full, I/O) or a failed
// COMMIT fails every transaction of the batch, none of which was answered yet. Busy moments thus
// pay for one commit (and one write of each hot page) per batch instead of one per transaction.
// Each transaction still runs alone on the connection and sees what those before it wrote, as if
// they had committed one by one.

/** The most transactions one commit takes, and the longest a batch stays open. */
export const BATCH_MAX = 64;
export const BATCH_MAX_MS = 10;

type Member = {
  scope: TxScope<unknown>;
  ok: boolean;
  value: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

export class CommitBatch {
  readonly #raw: DatabaseSync;
  readonly #opened = performance.now();
  readonly #members: Member[] = [];
  /** Why the batch can no longer commit (a savepoint statement failed). */
  #broken: unknown;

  constructor(raw: DatabaseSync) {
    this.#raw = raw;
    // IMMEDIATE takes the write lock up front, so a read-then-write (a frequency cap, an
    // allowance) cannot interleave with another process's write and fail half-way with BUSY.
    raw.exec('BEGIN IMMEDIATE');
  }

  /** No more transactions may join: commit when the running one ends. */
  get full(): boolean {
    return (
      this.#members.length >= BATCH_MAX ||
      performance.now() - this.#opened >= BATCH_MAX_MS ||
      this.#broken !== undefined ||
      !this.#raw.isTransaction
    );
  }

  /**
   * Runs one transaction's work in a savepoint of the batch. Returns once the work has ended, with
   * the promise of its outcome, settled when the batch commits (in a box: not to be awaited here).
   */
  async run<T>(scope: TxScope<unknown>, work: () => Promise<T>): Promise<{ settled: Promise<T> }> {
    let ok = false;
    let value: unknown;
    try {
      this.#raw.exec('SAVEPOINT rd_tx');
      try {
        value = await work();
        this.#raw.exec('RELEASE rd_tx');
        ok = true;
      } catch (error) {
        value = error;
        if (this.#raw.isTransaction) this.#raw.exec('ROLLBACK TO rd_tx; RELEASE rd_tx');
      }
    } catch (error) {
      if (ok) value = error;
      ok = false;
      this.#broken ??= error;
    }
    scope.active = false;
    const settled = new Promise<T>((resolve, reject) => {
      this.#members.push({ scope, ok, value, resolve: resolve as (value: unknown) => void, reject });
    });
    return { settled };
  }

  /** Commits (or, when broken, rolls back) and settles every transaction of the batch. */
  commit(): void {
    let failure: unknown = this.#broken;
    if (failure === undefined && !this.#raw.isTransaction) failure = rolledBack();
    if (failure === undefined) {
      try {
        this.#raw.exec('COMMIT');
      } catch (error) {
        failure = error;
      }
    }
    if (failure !== undefined && this.#raw.isTransaction) {
      try {
        this.#raw.exec('ROLLBACK');
      } catch {
        // The connection is unusable; every transaction below fails either way.
      }
    }
    for (const member of this.#members) {
      closeScope(member.scope, failure === undefined && member.ok);
      if (!member.ok) member.reject(member.value);
      else if (failure !== undefined) member.reject(failure);
      else member.resolve(member.value);
    }
  }
}

export function rolledBack(): Error {
  return new Error('The transaction was rolled back by an earlier error');
}
