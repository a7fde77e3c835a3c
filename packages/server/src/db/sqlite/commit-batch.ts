import type { DatabaseSync } from 'node:sqlite';
import { closeScope, type TxScope } from '../tx-context.ts';
import type { Gate } from './gate.ts';

// Transactions close together in time share SQLite's commit. SQLite runs one transaction at a
// time on the one connection; when one ends it does not COMMIT at once: a transaction already
// waiting, or one that starts before this turn of the event loop is over (the other requests that
// arrived together), runs inside the same BEGIN IMMEDIATE, in a savepoint of its own. When none
// is left (or the batch is full), one COMMIT writes them all, and only then is each one's promise
// settled: nobody is answered before their writes are durable. A plain statement waits for that
// commit, so it never reads what might yet be undone. A transaction that fails is rolled back
// alone: to its savepoint, or, the first of a batch (which has none: a savepoint makes a large
// transaction many times slower), with the whole transaction it began; an error that ends SQLite's transaction (disk full, I/O) or a failed
// COMMIT fails every transaction of the batch, none of which was answered yet. Busy moments thus
// pay for one commit (and one write of each hot page) per batch instead of one per transaction.
// Each transaction still runs alone on the connection and sees what those before it wrote, as if
// they had committed one by one.

/** The most transactions one commit takes, and the longest a batch stays open. */
export const BATCH_MAX = 64;
const BATCH_MAX_MS = 10;

type Member = {
  scope: TxScope<unknown>;
  ok: boolean;
  value: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

class CommitBatch {
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
    let threw = false;
    let value: unknown;
    // The first of a batch needs no savepoint: if it fails, the whole transaction is rolled back
    // (and a savepoint makes a large transaction, a bulk load, many times slower).
    const savepoint = this.#members.length > 0;
    try {
      if (savepoint) this.#raw.exec('SAVEPOINT rd_tx');
      try {
        value = await work();
        if (savepoint) this.#raw.exec('RELEASE rd_tx');
        ok = true;
      } catch (error) {
        threw = true;
        value = error;
        if (this.#raw.isTransaction)
          this.#raw.exec(savepoint ? 'ROLLBACK TO rd_tx; RELEASE rd_tx' : 'ROLLBACK');
      }
    } catch (error) {
      // A savepoint statement failed: this transaction fails (with the work's own error, if it
      // threw one), and the batch can no longer commit.
      if (!threw) value = error;
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

/** The connection's batches: which one is open, and whether it waits for more to join. */
export class SharedCommits {
  readonly #raw: DatabaseSync;
  readonly #gate: Gate;
  #batch: CommitBatch | undefined;
  /** The open batch holds the gate with no transaction running: the next one joins it at once. */
  #idle = false;
  #commitSoon: NodeJS.Immediate | undefined;

  constructor(raw: DatabaseSync, gate: Gate) {
    this.#raw = raw;
    this.#gate = gate;
  }

  /** Takes the connection for a transaction, in the open batch or a new one. */
  async enter(): Promise<CommitBatch> {
    if (this.#idle) this.#idle = false;
    else {
      const turn = this.#gate.acquire(true);
      if (turn !== undefined) await turn;
    }
    try {
      this.#batch ??= new CommitBatch(this.#raw);
      return this.#batch;
    } catch (error) {
      // BEGIN failed (another process held the write lock too long).
      this.#gate.release();
      throw error;
    }
  }

  /** After a transaction's work: the next one continues the batch, or it is committed. */
  leave(batch: CommitBatch): void {
    if (!batch.full && this.#gate.nextIsTransaction) this.#gate.release();
    else if (!batch.full && this.#gate.waiting === 0) {
      // Keep the gate: a transaction starting in this turn of the event loop joins; then commit.
      this.#idle = true;
      this.#commitSoon ??= setImmediate(() => {
        this.#commitSoon = undefined;
        if (this.#idle) this.#commit();
      });
    } else this.#commit();
  }

  #commit(): void {
    const batch = this.#batch;
    this.#batch = undefined;
    this.#idle = false;
    batch?.commit();
    this.#gate.release();
  }
}

export function rolledBack(): Error {
  return new Error('The transaction was rolled back by an earlier error');
}
