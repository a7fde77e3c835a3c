import { beforeAll, expect, it } from 'vitest';
import { describeEngines, useTestDatabase } from '../../test-support/databases.ts';
import { groupCommit } from './group-commit.ts';
import { openSqlite } from './sqlite/database.ts';

describeEngines('group commit', (dialect) => {
  const database = useTestDatabase(dialect);
  beforeAll(() =>
    database().db.exec('CREATE TABLE claims (key TEXT PRIMARY KEY, n INTEGER NOT NULL CHECK (n > 0))'),
  );

  it('settles each write once it is committed; a failing write fails alone', async () => {
    const write = groupCommit(database().db);
    const claim = (key: string, n = 1) =>
      write((q) => q.run('INSERT INTO claims (key, n) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', key, n));
    const results = await Promise.allSettled([
      claim('a'),
      claim('b'),
      claim('a'),
      claim('bad', 0),
      claim('c'),
    ]);
    const outcomes = results.map((r) => (r.status === 'fulfilled' ? r.value.changes : 'rejected'));
    expect(outcomes.slice(1)).toEqual([1, expect.any(Number), 'rejected', 1]);
    // The two claims of 'a': on SQLite the first in order takes it; on PostgreSQL they run at once
    // on two connections and either may, but only one does.
    if (dialect === 'sqlite') expect([outcomes[0], outcomes[2]]).toEqual([1, 0]);
    else expect([outcomes[0], outcomes[2]].sort()).toEqual([0, 1]);
    // The successful writes are there, the refused one is not.
    const other = await database().db.all<{ key: string }>('SELECT key FROM claims ORDER BY key');
    expect(other.map((r) => r.key)).toEqual(['a', 'b', 'c']);
  });

  if (dialect === 'sqlite') {
    it('shares one transaction between the writes of one turn of the event loop', async () => {
      const write = groupCommit(database().db);
      // A second connection to the file sees only committed data.
      const other = openSqlite({ file: database().url });
      const [, seenDuringBatch] = await Promise.all([
        write((q) => q.run('INSERT INTO claims (key, n) VALUES ($1, 1)', 'y1')),
        write(() => other.get<{ n: number }>('SELECT count(*) AS n FROM claims WHERE key = $1', 'y1')),
      ]);
      expect(seenDuringBatch).toEqual({ n: 0 });
      expect(await other.get('SELECT count(*) AS n FROM claims WHERE key = $1', 'y1')).toEqual({ n: 1 });
      await other.close();
    });
  }
});
