import type { Db } from '../store/db.ts';

// Group commit for the journal's writes: the writes asked for during one turn of the event loop
// are committed together in one transaction at its end (setImmediate), and each caller's promise
// settles only once that transaction is committed — the same guarantee as one commit per write,
// while concurrent sends share the commit's cost: the hot pages (the table's last leaf, the
// in-flight and date indexes) are written to the WAL once per batch instead of once per statement.
// See docs/decisions/0011-bff-journal-group-commit.md.

type QueuedWrite = { run: () => unknown; resolve: (value: never) => void; reject: (error: unknown) => void };

/**
 * Returns `write(run)`: `run` is queued and executed with the others queued in the same turn of the
 * event loop, in one transaction; the promise settles once that transaction is committed (or
 * rejects if it failed; a statement that fails alone fails alone).
 */
export function groupCommitter(db: Db) {
  let queue: QueuedWrite[] = [];
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 1) {
      // Alone: the statement is its own transaction.
      const op = batch[0] as QueuedWrite;
      let value: unknown;
      try {
        value = op.run();
      } catch (error) {
        op.reject(error);
        return;
      }
      op.resolve(value as never);
      return;
    }
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const op of batch) op.reject(error);
      return;
    }
    const outcomes: { ok: boolean; value: unknown }[] = [];
    for (const op of batch) {
      if (!db.isTransaction) break;
      try {
        outcomes.push({ ok: true, value: op.run() });
      } catch (error) {
        // A failed statement is undone on its own; the others stand (SQLite statement rollback).
        outcomes.push({ ok: false, value: error });
      }
    }
    // An error that ends the transaction (disk full, I/O) undid every write of the batch.
    let failure: unknown = db.isTransaction ? null : new Error('journal transaction rolled back');
    if (failure === null) {
      try {
        db.exec('COMMIT');
      } catch (error) {
        failure = error;
        try {
          if (db.isTransaction) db.exec('ROLLBACK');
        } catch {
          // the connection already gave up the transaction
        }
      }
    }
    batch.forEach((op, i) => {
      const outcome = outcomes[i];
      if (failure !== null || outcome === undefined) op.reject(failure ?? new Error('journal write skipped'));
      else if (outcome.ok) op.resolve(outcome.value as never);
      else op.reject(outcome.value);
    });
  }

  return function write<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ run, resolve: resolve as (value: never) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  };
}
