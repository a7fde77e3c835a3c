import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDirs } from '../../../test-support/scratch.ts';
import { BATCH_MAX } from './commit-batch.ts';
import { openSqlite } from './database.ts';

// Transactions that queue for the connection share one commit, and none is answered before it.

const scratch = useScratchDirs('rd-sqlite-batch-');

async function open() {
  const file = path.join(scratch(), 'batch.db');
  const db = openSqlite({ file });
  await db.exec('CREATE TABLE t (x INTEGER PRIMARY KEY)');
  // Another connection to the file sees only what is committed.
  return { db, other: openSqlite({ file }) };
}

describe('SQLite transactions queued together', () => {
  /**
   * Row 1 written by a first transaction, then row 2 by a second that starts once `start`
   * says so; returns what the other connection saw of the table while the second ran.
   */
  async function twoTransactions(start: (ended: Promise<void>) => Promise<void>) {
    const { db, other } = await open();
    const answered: number[] = [];
    const ended = Promise.withResolvers<void>();
    const first = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (1)');
      ended.resolve();
    });
    void first.then(() => answered.push(1));
    await start(ended.promise);
    let seenByOther: unknown;
    const second = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (2)');
      // It runs after the first in the same open transaction: it sees the first's row …
      expect(await tx.get('SELECT count(*) AS n FROM t')).toEqual({ n: 2 });
      // … which is not committed yet, and nobody has been answered.
      seenByOther = await other.get('SELECT count(*) AS n FROM t');
      expect(answered).toEqual([]);
    });
    await Promise.all([first, second]);
    const after = await other.get('SELECT count(*) AS n FROM t');
    await other.close();
    await db.close();
    return { seenByOther, after };
  }

  it('share one commit: the first is answered only when the last has committed with it', async () => {
    // The second queues while the first runs.
    expect(await twoTransactions(async () => {})).toEqual({ seenByOther: { n: 0 }, after: { n: 2 } });
  });

  it('one that starts just after another ended, in the same turn of the event loop, joins its commit', async () => {
    const joined = await twoTransactions((ended) => ended);
    expect(joined).toEqual({ seenByOther: { n: 0 }, after: { n: 2 } });
  });

  it('a failing transaction is undone alone; the others of its batch commit', async () => {
    const { db, other } = await open();
    const results = await Promise.allSettled([
      db.transaction((tx) => tx.run('INSERT INTO t VALUES (1)')),
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t VALUES (2)');
        throw new Error('refused');
      }),
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t VALUES (3)');
        await tx.run('INSERT INTO t VALUES (1)'); // a duplicate key: this transaction fails
      }),
      db.transaction((tx) => tx.run('INSERT INTO t VALUES (4)')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
    expect(await other.all('SELECT x FROM t ORDER BY x')).toEqual([{ x: 1 }, { x: 4 }]);
    await other.close();
    await db.close();
  });

  it('the first of a batch failing is undone alone; the one after it still commits', async () => {
    const { db, other } = await open();
    const results = await Promise.allSettled([
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t VALUES (1)');
        throw new Error('refused');
      }),
      db.transaction((tx) => tx.run('INSERT INTO t VALUES (2)')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect(await other.all('SELECT x FROM t')).toEqual([{ x: 2 }]);
    await other.close();
    await db.close();
  });

  it('a flood of more transactions than one batch takes: every one is kept', async () => {
    const { db, other } = await open();
    const count = BATCH_MAX * 3 + 5;
    await Promise.all(
      Array.from({ length: count }, (_, i) => db.transaction((tx) => tx.run('INSERT INTO t VALUES ($1)', i))),
    );
    expect(await other.get('SELECT count(*) AS n FROM t')).toEqual({ n: count });
    await other.close();
    await db.close();
  });

  it('a statement outside any transaction waits for the batch to commit and sees it', async () => {
    const { db, other } = await open();
    const tx = db.transaction((t) => t.run('INSERT INTO t VALUES (1)'));
    const read = db.get('SELECT count(*) AS n FROM t');
    const after = db.transaction((t) => t.run('INSERT INTO t VALUES (2)'));
    await Promise.all([tx, after]);
    expect(await read).toEqual({ n: 1 });
    expect(await other.get('SELECT count(*) AS n FROM t')).toEqual({ n: 2 });
    await other.close();
    await db.close();
  });
});
