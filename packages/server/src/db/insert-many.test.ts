import { beforeAll, expect, it } from 'vitest';
import { describeEngines, useTestDatabase } from '../../test-support/databases.ts';
import { batchSize, insertMany } from './insert-many.ts';

describeEngines('inserting many rows', (dialect) => {
  const database = useTestDatabase(dialect);
  beforeAll(() =>
    database().db.exec('CREATE TABLE contacts (k TEXT PRIMARY KEY, "both" INTEGER NOT NULL, note TEXT)'),
  );

  it('inserts every row in batches under the parameter limit, quoting reserved column names', async () => {
    const rows = Array.from({ length: 2_345 }, (_, i) => [`k${i}`, i, i % 2 ? null : `note ${i}`]);
    expect(
      await insertMany(database().db, 'contacts', ['k', 'both', 'note'], rows, { batchRows: 1_000 }),
    ).toBe(2_345);
    expect(await database().db.get('SELECT count(*) AS n, sum("both") AS s FROM contacts')).toEqual({
      n: 2_345,
      s: (2_344 * 2_345) / 2,
    });
  });

  it('takes a conflict clause, and counts only what it inserted', async () => {
    const rows = [
      ['k1', 0, null],
      ['new', 7, 'x'],
    ];
    expect(
      await insertMany(database().db, 'contacts', ['k', 'both', 'note'], rows, {
        suffix: 'ON CONFLICT (k) DO NOTHING',
      }),
    ).toBe(1);
  });

  it('joins the transaction it is called in', async () => {
    await expect(
      database().db.transaction(async () => {
        await insertMany(database().db, 'contacts', ['k', 'both', 'note'], [['tx', 1, null]]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await database().db.get("SELECT k FROM contacts WHERE k = 'tx'")).toBeUndefined();
  });

  it('keeps a statement under the engine limit when a table has many columns', () => {
    expect(batchSize(database().db, 40, 1_000)).toBe(dialect === 'sqlite' ? 819 : 1_000);
    expect(batchSize(database().db, 100, 1_000)).toBe(dialect === 'sqlite' ? 327 : 655);
  });
});
