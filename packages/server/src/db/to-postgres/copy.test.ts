import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test-support/databases.ts';
import { schedulingMigrations } from '../../jobs/store.ts';
import { type MigrationSource, migrate } from '../migrate.ts';
import { openSqlite } from '../sqlite/database.ts';
import { CopyRefused, copySqliteToPostgres } from './copy.ts';

// One migration for both engines (migrate.ts). On SQLite the children are created before their
// parents on purpose (PostgreSQL needs the parents first): the copy orders tables by foreign key.
const CHILDREN =
  'CREATE TABLE children (id {{id}}, parent_id {{bigint}} NOT NULL REFERENCES parents (id), body {{bytes}});';
const SCHEMA = `
  ${CHILDREN} -- sqlite
  CREATE TABLE parents (id {{id}}, name TEXT NOT NULL, active INTEGER NOT NULL, created_at {{bigint}} NOT NULL);
  ${CHILDREN} -- postgres
  CREATE TABLE pairs (k TEXT PRIMARY KEY, n INTEGER NOT NULL) {{strict-without-rowid}};
  CREATE TABLE events (id {{id-always}}, name TEXT NOT NULL);`;

describe('copying a SQLite installation into PostgreSQL', () => {
  let dir: string;
  let app: MigrationSource;
  let sqliteFile: string;
  const targets: TestDatabase[] = [];
  const target = async () => {
    const t = await createTestDatabase('postgres', { migrations: [schedulingMigrations, app] });
    targets.push(t);
    return t;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rd-copy-'));
    writeFileSync(path.join(dir, '001-tables.sql'), SCHEMA);
    app = { component: 'app', dir };
    sqliteFile = path.join(dir, 'data', 'app.db');
    const db = openSqlite({ file: sqliteFile });
    await migrate(db, [schedulingMigrations, app]);
    await db.transaction(async (tx) => {
      for (let i = 1; i <= 2_500; i++) {
        await tx.run(
          'INSERT INTO parents (id, name, active, created_at) VALUES ($1, $2, $3, $4)',
          i * 2,
          `p${i}`,
          i % 2,
          1_700_000_000_000 + i,
        );
        await tx.run(
          'INSERT INTO children (parent_id, body) VALUES ($1, $2)',
          i * 2,
          new Uint8Array([i % 256, 0, 255]),
        );
      }
      for (let i = 0; i < 10; i++) await tx.run('INSERT INTO pairs (k, n) VALUES ($1, $2)', `k${i}`, i);
      for (const id of [3, 7]) await tx.run('INSERT INTO events (id, name) VALUES ($1, $2)', id, `e${id}`);
      await tx.run(
        "INSERT INTO jobs (kind, payload, state, run_at, max_attempts, created_at) VALUES ('x', 'null', 'pending', 1, 3, 1)",
      );
    });
    await db.close({ checkpoint: true });
  });
  afterAll(async () => {
    for (const t of targets) await t.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every row of every table in batches, verifies the counts and moves the identities past the copied ids', async () => {
    const t = await target();
    const progress: string[] = [];
    const report = await copySqliteToPostgres({
      from: sqliteFile,
      to: t.db,
      onProgress: (table, copied, total) => progress.push(`${table} ${copied}/${total}`),
    });
    const rows = Object.fromEntries(report.tables.map((r) => [r.table, r.rows]));
    expect(rows).toEqual({ parents: 2_500, children: 2_500, pairs: 10, events: 2, jobs: 1, instances: 0 });
    const order = report.tables.map((r) => r.table);
    expect(order.indexOf('parents')).toBeLessThan(order.indexOf('children'));
    expect(progress).toContain('parents 1000/2500');
    expect(await t.db.get('SELECT id, name, active, created_at FROM parents WHERE id = $1', 5_000)).toEqual({
      id: 5_000,
      name: 'p2500',
      active: 0,
      created_at: 1_700_000_002_500,
    });
    const child = await t.db.get<{ body: Uint8Array }>('SELECT body FROM children WHERE parent_id = $1', 6);
    expect([...(child?.body ?? [])]).toEqual([3, 0, 255]);
    // New rows get ids after the copied ones.
    expect(
      await t.db.get("INSERT INTO parents (name, active, created_at) VALUES ('new', 1, 0) RETURNING id"),
    ).toEqual({
      id: 5_001,
    });
    expect(await t.db.get('INSERT INTO children (parent_id) VALUES (2) RETURNING id')).toEqual({ id: 2_501 });
    // An identity that refuses explicit ids took the copied ones, and refuses them again after.
    expect(await t.db.all('SELECT id, name FROM events ORDER BY id')).toEqual([
      { id: 3, name: 'e3' },
      { id: 7, name: 'e7' },
    ]);
    expect(await t.db.get("INSERT INTO events (name) VALUES ('new') RETURNING id")).toEqual({ id: 8 });
    await expect(t.db.run("INSERT INTO events (id, name) VALUES (9, 'x')")).rejects.toThrow(
      /cannot insert a non-DEFAULT value/,
    );
  });

  it('refuses to write into a database that holds any row, and changes nothing', async () => {
    const t = await target();
    await t.db.run("INSERT INTO pairs (k, n) VALUES ('already', 1)");
    const error = await copySqliteToPostgres({ from: sqliteFile, to: t.db }).catch((e) => e);
    expect(error).toBeInstanceOf(CopyRefused);
    expect(error.message).toMatch(/already holds data \(pairs\)/);
    expect(await t.db.get('SELECT count(*) AS n FROM parents')).toEqual({ n: 0 });
  });

  it('keeps nothing when a table ends up with other counts than the source', async () => {
    const t = await target();
    // A rule on the target that silently drops some rows: the verification must catch it.
    await t.db.exec(
      'CREATE RULE drop_some AS ON INSERT TO children WHERE NEW.parent_id = 4 DO INSTEAD NOTHING',
    );
    await expect(copySqliteToPostgres({ from: sqliteFile, to: t.db })).rejects.toThrow(
      /children: 2500 rows in SQLite, 2499 in PostgreSQL/,
    );
    expect(await t.db.get('SELECT count(*) AS n FROM parents')).toEqual({ n: 0 });
  });

  it('refuses a SQLite file at another schema version, naming what to do', async () => {
    const t = await target();
    const older = path.join(dir, 'older.db');
    const db = openSqlite({ file: older });
    await migrate(db, [schedulingMigrations]);
    await db.close();
    const error = await copySqliteToPostgres({ from: older, to: t.db }).catch((e) => e);
    expect(error).toBeInstanceOf(CopyRefused);
    expect(error.message).toContain('The SQLite database is at schema 0 of app, PostgreSQL at 1');
  });
});
