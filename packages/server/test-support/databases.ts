import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { type MigrationSource, migrate } from '../src/db/migrate.ts';
import { openPostgres } from '../src/db/postgres/database.ts';
import { openSqlite } from '../src/db/sqlite/database.ts';
import type { Database, Dialect } from '../src/db/types.ts';

// Databases for tests: a fresh one per call, on either engine. PostgreSQL comes from the server
// postgres-setup.ts starts once per run (a workspace opts in by listing that file in its vitest
// project's globalSetup; see packages/server/README.md).

export const ENGINES: readonly Dialect[] = ['sqlite', 'postgres'];

/** The test run's PostgreSQL server (its `postgres` database). */
export function testPostgresUrl(): string {
  let url: string | undefined;
  try {
    url = inject('postgresUrl');
  } catch {
    // outside a vitest worker: a process a test started
  }
  url ??= process.env.RD_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      'No PostgreSQL for this test: add @review-desk/server/test-support/postgres-setup.ts to the ' +
        "vitest project's globalSetup (packages/server/README.md), or set RD_TEST_POSTGRES_URL.",
    );
  }
  return url;
}

export type TestDatabase = {
  db: Database;
  /** What a child process opens to reach the same data: a postgres:// URL or the SQLite file. */
  url: string;
  /** Closes the handle and deletes the data. */
  dispose(): Promise<void>;
};

/** An empty PostgreSQL database on the test server; returns its URL. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = testPostgresUrl();
  const name = `rd_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(admin, `CREATE DATABASE ${name} STRATEGY FILE_COPY`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database of the engine, migrated with `migrations` when given. */
export async function createTestDatabase(
  dialect: Dialect,
  options: { migrations?: readonly MigrationSource[]; poolSize?: number } = {},
): Promise<TestDatabase> {
  let db: Database;
  let url: string;
  let cleanup: () => Promise<void>;
  if (dialect === 'postgres') {
    const created = await createPostgresDatabase();
    url = created.url;
    db = await openPostgres({ url, poolSize: options.poolSize ?? 5, applicationName: 'review-desk-test' });
    cleanup = created.drop;
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'rd-db-'));
    url = path.join(dir, 'test.db');
    db = openSqlite({ file: url });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  if (options.migrations) await migrate(db, options.migrations);
  return {
    db,
    url,
    async dispose() {
      await db.close();
      await cleanup();
    },
  };
}

/** Runs the suite once per engine: `describeEngines('journal', (dialect) => { … })`. */
export function describeEngines(title: string, body: (dialect: Dialect) => void): void {
  describe.each(ENGINES)(`${title} (%s)`, body);
}

/**
 * A fresh database for the enclosing describe block (created before its tests, deleted after);
 * returns a getter, since the database exists only once the tests start.
 */
export function useTestDatabase(
  dialect: Dialect,
  options: { migrations?: readonly MigrationSource[]; poolSize?: number } = {},
): () => TestDatabase {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createTestDatabase(dialect, options);
  });
  afterAll(async () => {
    await current?.dispose();
  });
  return () => {
    if (!current) throw new Error('The test database exists only inside tests and hooks');
    return current;
  };
}
