import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDirs } from '../../../test-support/scratch.ts';
import { sqliteFiles } from '../../files.ts';
import { StartupError } from '../../startup-error.ts';
import { openSqlite } from './database.ts';

const scratch = useScratchDirs('rd-sqlite-');
const mode = (p: string) => statSync(p).mode & 0o777;

describe('SQLite executor', () => {
  it('keeps the data folder 0700 and the database and its WAL 0600, in WAL mode', async () => {
    const dir = path.join(scratch(), 'data');
    const file = path.join(dir, 'app.db');
    const db = openSqlite({ file });
    await db.exec('CREATE TABLE t (x INTEGER)');
    await db.run('INSERT INTO t VALUES ($1)', 1);
    expect(await db.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
    expect(await db.get('PRAGMA foreign_keys')).toEqual({ foreign_keys: 1 });
    expect(mode(dir)).toBe(0o700);
    for (const f of sqliteFiles(file).slice(0, 3)) expect(mode(f)).toBe(0o600);
    await db.close({ checkpoint: true });
  });

  it('waits for an open transaction before closing', async () => {
    const file = path.join(scratch(), 'a.db');
    const db = openSqlite({ file });
    await db.exec('CREATE TABLE t (x INTEGER)');
    const hold = Promise.withResolvers<void>();
    const tx = db.transaction(async (t) => {
      await hold.promise;
      await t.run('INSERT INTO t VALUES (1)');
    });
    const closed = db.close();
    hold.resolve();
    await tx;
    await closed;
    const again = openSqlite({ file });
    expect(await again.get('SELECT count(*) AS n FROM t')).toEqual({ n: 1 });
    await again.close();
  });

  it('refuses a file that is not a database with one line naming it and the setting', () => {
    const file = path.join(scratch(), 'not-a.db');
    writeFileSync(file, 'this is not a database, it is a text file of some length'.repeat(20));
    let error: unknown;
    try {
      openSqlite({ file, variable: 'BFF_DATABASE_URL' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('(BFF_DATABASE_URL)');
  });
});
