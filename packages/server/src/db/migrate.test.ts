import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, describeEngines } from '../../test-support/databases.ts';
import { useScratchDirs } from '../../test-support/scratch.ts';
import { schedulingMigrations } from '../jobs/store.ts';
import { type MigrationSource, migrate, migrationFiles, renderMigration } from './migrate.ts';
import { openSqlite } from './sqlite/database.ts';

const scratch = useScratchDirs('rd-migrate-');
function folder(files: Record<string, string>): string {
  const dir = scratch();
  for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(dir, name), sql);
  return dir;
}

describeEngines('migrations', (dialect) => {
  it('applies each component once, in order, and nothing on the next start', async () => {
    const app: MigrationSource = {
      component: 'app',
      dir: folder({
        '001-a.sql': 'CREATE TABLE a (id {{id}}, at {{bigint}} NOT NULL) {{strict}};',
        '002-b.sql': 'CREATE TABLE b (x INTEGER);',
      }),
    };
    const test = await createTestDatabase(dialect);
    try {
      const first = await migrate(test.db, [schedulingMigrations, app]);
      expect(first.map((m) => `${m.component}/${m.name}`)).toEqual([
        'scheduling/001-jobs-and-instances.sql',
        'app/001-a.sql',
        'app/002-b.sql',
      ]);
      expect(await migrate(test.db, [schedulingMigrations, app])).toEqual([]);
      expect(await test.db.get('SELECT count(*) AS n FROM schema_migrations')).toEqual({ n: 3 });
    } finally {
      await test.dispose();
    }
  });

  it('refuses a database written by a newer version with one plain line naming the setting', async () => {
    const test = await createTestDatabase(dialect, { migrations: [schedulingMigrations] });
    try {
      await test.db.run(
        "INSERT INTO schema_migrations (component, version, name, applied_at) VALUES ('scheduling', 9, '009-x.sql', 'now')",
      );
      const error = await migrate(test.db, [schedulingMigrations], { variable: 'DATABASE_URL' }).catch(
        (e) => e,
      );
      expect(error.name).toBe('StartupError');
      expect(error.variable).toBe('DATABASE_URL');
      expect(error.message).toContain(
        'was written by a newer version of Review Desk (schema 9, this version knows up to 1',
      );
      expect(error.message).not.toContain('\n');
    } finally {
      await test.dispose();
    }
  });

  it('undoes a file that fails half-way and applies nothing after it', async () => {
    const app: MigrationSource = {
      component: 'app',
      dir: folder({
        '001-ok.sql': 'CREATE TABLE ok (x INTEGER);',
        '002-broken.sql': 'CREATE TABLE half (x INTEGER); CREATE TABLE broken (;',
        '003-later.sql': 'CREATE TABLE later (x INTEGER);',
      }),
    };
    const test = await createTestDatabase(dialect);
    try {
      await expect(migrate(test.db, [app])).rejects.toThrow();
      const versions = await test.db.all<{ version: number }>('SELECT version FROM schema_migrations');
      expect(versions).toEqual([{ version: 1 }]);
      await expect(test.db.get('SELECT count(*) AS n FROM half')).rejects.toThrow();
    } finally {
      await test.dispose();
    }
  });
});

describe('migration files', () => {
  it('must be numbered without gaps', () => {
    const dir = folder({ '001-a.sql': '', '003-c.sql': '' });
    expect(() => migrationFiles({ component: 'x', dir }, 'sqlite')).toThrow(/numbered 001, 002/);
    expect(() => migrationFiles({ component: 'x', dir: path.join(dir, 'none') }, 'postgres')).toThrow(
      /No migrations for x/,
    );
  });

  it('are written once: each engine runs its own words, lines and blocks', () => {
    const file = [
      'CREATE {{unlogged}} TABLE t (',
      '  id {{id}},',
      '  at {{bigint}} NOT NULL,',
      '  body {{bytes}},',
      '  n INTEGER NOT NULL DEFAULT 0, -- sqlite',
      '  n integer NOT NULL DEFAULT 1, -- postgres',
      ') {{strict}};',
      '-- sqlite:',
      'CREATE TABLE s (k TEXT PRIMARY KEY) {{strict-without-rowid}};',
      '-- end',
      '-- postgres:',
      'CREATE TABLE p (k text PRIMARY KEY, g bigint REFERENCES t (id));',
      '-- end',
      '-- On SQLite the table is rebuilt; on -- postgres it is altered (a comment, not a marker).',
    ].join('\n');
    const lines = (dialect: 'sqlite' | 'postgres') =>
      renderMigration(file, dialect)
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    expect(lines('sqlite')).toEqual([
      'CREATE  TABLE t (',
      'id INTEGER PRIMARY KEY,',
      'at INTEGER NOT NULL,',
      'body BLOB,',
      'n INTEGER NOT NULL DEFAULT 0,',
      ') STRICT;',
      'CREATE TABLE s (k TEXT PRIMARY KEY) STRICT, WITHOUT ROWID;',
      '-- On SQLite the table is rebuilt; on -- postgres it is altered (a comment, not a marker).',
    ]);
    expect(lines('postgres')).toEqual([
      'CREATE UNLOGGED TABLE t (',
      'id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,',
      'at bigint NOT NULL,',
      'body bytea,',
      'n integer NOT NULL DEFAULT 1,',
      ') ;',
      'CREATE TABLE p (k text PRIMARY KEY, g bigint REFERENCES t (id));',
      '-- On SQLite the table is rebuilt; on -- postgres it is altered (a comment, not a marker).',
    ]);
  });

  it('refuses a word it does not know and a block left open, naming the file and line', () => {
    expect(() => renderMigration('CREATE TABLE t (x {{int}});', 'sqlite', '001-t.sql')).toThrow(
      /001-t.sql:1: no \{\{int\}\}/,
    );
    expect(() => renderMigration('-- postgres:\nSELECT 1;', 'sqlite', '002-u.sql')).toThrow(
      /002-u.sql: -- postgres: block without -- end/,
    );
    expect(() => renderMigration('SELECT 1;\n-- end', 'postgres', '003-v.sql')).toThrow(
      /003-v.sql:2: -- end without a block/,
    );
  });
});

describe('taking over what an older version recorded (SQLite)', () => {
  it("adopts the service's old schema_migrations table (no components)", async () => {
    const dir = folder({
      '001-initial.sql': 'CREATE TABLE t (x INTEGER);',
      '002-more.sql': 'CREATE TABLE u (x INTEGER);',
    });
    const db = openSqlite({ file: path.join(dir, 'old.db') });
    await db.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT;
      INSERT INTO schema_migrations VALUES (1, '001-initial.sql', '2026-01-01T00:00:00.000Z');
      CREATE TABLE t (x INTEGER);`);
    const applied = await migrate(db, [
      schedulingMigrations,
      { component: 'api', dir, legacy: 'schema_migrations' },
    ]);
    expect(applied.map((m) => `${m.component}/${m.name}`)).toEqual([
      'scheduling/001-jobs-and-instances.sql',
      'api/002-more.sql',
    ]);
    await db.close();
  });

  it("adopts the BFF's old user_version", async () => {
    const dir = folder({
      '001-initial.sql': 'CREATE TABLE users (x INTEGER);',
      '002-more.sql': 'CREATE TABLE v (x INTEGER);',
    });
    const db = openSqlite({ file: path.join(dir, 'bff.db') });
    await db.exec('CREATE TABLE users (x INTEGER); PRAGMA user_version = 1;');
    const applied = await migrate(db, [{ component: 'bff', dir, legacy: 'user_version' }]);
    expect(applied.map((m) => m.name)).toEqual(['002-more.sql']);
    expect(await migrate(db, [{ component: 'bff', dir, legacy: 'user_version' }])).toEqual([]);
    await db.close();
  });
});
