import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/support/processes.ts';
import { groupCommitter } from './group-commit.ts';

let temp: ReturnType<typeof tempDir>;
let db: DatabaseSync;
let other: DatabaseSync;

beforeEach(() => {
  temp = tempDir('bff-group-commit-');
  db = new DatabaseSync(`${temp.dir}/j.db`);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
  other = new DatabaseSync(`${temp.dir}/j.db`, { readOnly: true });
});

afterEach(() => {
  other.close();
  db.close();
  temp.cleanup();
});

const insert = (v: string) => () => {
  db.prepare('INSERT INTO t (v) VALUES (?)').run(v);
  return db.isTransaction;
};
const count = () => Number((other.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n);

describe('the journal’s group commit', () => {
  it('commits the writes of one event-loop turn in one transaction, and settles each after the commit', async () => {
    const write = groupCommitter(db);
    const pending = [write(insert('a')), write(insert('b')), write(insert('c'))];
    expect(count()).toBe(0);
    const inTransaction = await Promise.all(pending);
    expect(inTransaction).toEqual([true, true, true]);
    // Settled means committed: another connection sees every row.
    expect(count()).toBe(3);
  });

  it('runs a lone write as its own statement, without a transaction around it', async () => {
    const write = groupCommitter(db);
    expect(await write(insert('alone'))).toBe(false);
    expect(await write(insert('next turn'))).toBe(false);
    expect(count()).toBe(2);
  });

  it('fails a failing statement alone: the rest of its batch is committed', async () => {
    const write = groupCommitter(db);
    db.prepare('INSERT INTO t (v) VALUES (?)').run('taken');
    const results = await Promise.allSettled([
      write(insert('x')),
      write(insert('taken')),
      write(insert('y')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(count()).toBe(3);
  });

  it('rejects every write of a batch whose transaction cannot begin', async () => {
    const write = groupCommitter(db);
    db.exec('BEGIN'); // someone else's transaction is open on the connection
    const results = await Promise.allSettled([write(insert('p')), write(insert('q'))]);
    db.exec('ROLLBACK');
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(count()).toBe(0);
  });
});
