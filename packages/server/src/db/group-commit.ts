import type { Database, Queryable } from './types.ts';

// Group commit for writes that must be durable before the caller goes on (the BFF's send
// journal: a claim before the send leaves, an outcome before the answer is written).
// SQLite: the writes asked for during one turn of the event loop run in one BEGIN IMMEDIATE …
// COMMIT at its end, and each caller's promise settles once that transaction has committed, so
// concurrent writers share one commit (see docs/decisions/0011-bff-journal-group-commit.md). A write
// that fails is undone alone (SQLite rolls back the failed statement, not the transaction), so
// each write must be ONE statement; an error that ends the transaction fails the whole batch.
// PostgreSQL: each write runs at once on a pooled connection, in its own implicit transaction;
// the server already shares the WAL flush of concurrent commits between them.

export type Write<T> = (q: Queryable) => Promise<T>;
export type GroupCommit = <T>(write: Write<T>) => Promise<T>;

type Queued = { write: Write<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void };

export function groupCommit(db: Database): GroupCommit {
  if (db.dialect === 'postgres') return (write) => write(db);
  let queue: Queued[] = [];
  let scheduled = false;

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = queue;
    queue = [];
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      await db.transaction(async (tx) => {
        for (const op of batch) {
          try {
            outcomes.push({ ok: true, value: await op.write(tx) });
          } catch (error) {
            outcomes.push({ ok: false, value: error });
          }
        }
      });
    } catch (error) {
      // BEGIN or COMMIT failed (disk full, I/O, another process held the lock too long): nothing
      // of the batch is written.
      for (const op of batch) op.reject(error);
      return;
    }
    batch.forEach((op, i) => {
      const outcome = outcomes[i] as { ok: boolean; value: unknown };
      if (outcome.ok) op.resolve(outcome.value);
      else op.reject(outcome.value);
    });
  }

  return <T>(write: Write<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
