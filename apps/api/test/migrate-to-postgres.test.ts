import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openDatabase } from '@review-desk/server/db/open';
import { createPostgresDatabase } from '@review-desk/server/test-support/databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startApp, tempDir } from '../../../test/support/processes.ts';

// An installation of the service moves from its SQLite file to PostgreSQL with one command and
// keeps everything: every row of every table, the keys, the counters and roll-ups the lists and
// analytics read, the contact keys the frequency cap counts by, and ids that go on after the
// copied ones.

const tmp = tempDir('rd-api-move-');
const env = {
  DATABASE_PATH: path.join(tmp.dir, 'api.db'),
  DEMO_KEY_FILE: path.join(tmp.dir, 'demo-api-key'),
  SEED_DEMO: '1',
  DEV_OUTBOX: '1',
};
let database: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  database = await createPostgresDatabase();
});
afterAll(async () => {
  await database?.drop();
  tmp.cleanup();
});

/** What the assertions read of an envelope; the whole body is compared where it matters. */
type Body = { success: boolean; code?: string; data: { total: number } };

async function call(base: string, key: string, route: string, body?: unknown) {
  const response = await fetch(`${base}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': key, origin: base, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Body };
}

/** Rows per table, schema bookkeeping aside. */
function sqliteCounts(file: string): Record<string, number> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'`,
      )
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        Number((db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n),
      ]),
    );
  } finally {
    db.close();
  }
}

async function postgresCounts(url: string): Promise<Record<string, number>> {
  const db = await openDatabase({ url, poolSize: 1 });
  try {
    const tables = await db.all<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables)
      counts[name] = Number((await db.get<{ n: number }>(`SELECT count(*) AS n FROM "${name}"`))?.n);
    return counts;
  } finally {
    await db.close();
  }
}

describe('migrate-to-postgres', () => {
  it('copies every row, verifies the counts, refuses a second copy, and the service goes on from PostgreSQL', async () => {
    const onSqlite = await startApp('api', { env });
    const key = readFileSync(env.DEMO_KEY_FILE, 'utf8').trim();
    let reviews: Body;
    let analytics: Body;
    try {
      const sent = await call(onSqlite.url, key, '/api/v1/requests/send', {
        customerName: 'Moved Customer',
        customerEmail: 'ana+moved@gmail.com',
        channel: 'email',
      });
      expect(sent.status).toBe(200);
      reviews = (await call(onSqlite.url, key, '/api/v1/reviews?limit=20')).json;
      analytics = (await call(onSqlite.url, key, '/api/v1/analytics?days=365')).json;
      expect(reviews.data.total).toBeGreaterThan(0);
    } finally {
      await onSqlite.stop();
    }
    const before = sqliteCounts(env.DATABASE_PATH);

    const cliEnv = { DATABASE_PATH: env.DATABASE_PATH, DEMO_KEY_FILE: env.DEMO_KEY_FILE };
    const out = await runCli('api', ['migrate-to-postgres', database.url], { env: cliEnv });
    expect(out).toMatch(new RegExp(`^reviews\\s+${before.reviews} rows$`, 'm'));
    expect(out).toMatch(new RegExp(`^requests\\s+${before.requests} rows$`, 'm'));
    expect(out).toMatch(/every count matched/);
    // Every table of every component, row for row.
    expect(await postgresCounts(database.url)).toEqual(before);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(['businesses', 'api_keys', 'review_daily', 'jobs', 'business_settings']),
    );
    await expect(runCli('api', ['migrate-to-postgres', database.url], { env: cliEnv })).rejects.toThrow(
      /exited 1.*already holds data/s,
    );
    expect(await postgresCounts(database.url)).toEqual(before);

    const onPostgres = await startApp('api', { env: { ...env, DATABASE_URL: database.url } });
    try {
      // The same key, the same list and analytics (the counters and roll-ups came along); the demo
      // data is not made a second time.
      expect((await call(onPostgres.url, key, '/api/v1/reviews?limit=20')).json).toEqual(reviews);
      expect((await call(onPostgres.url, key, '/api/v1/analytics?days=365')).json).toEqual(analytics);
      // The mailbox's contact key came along: the same mailbox spelled otherwise is capped.
      const capped = await call(onPostgres.url, key, '/api/v1/requests/send', {
        customerName: 'Moved Customer',
        customerEmail: 'a.n.a@gmail.com',
        channel: 'email',
      });
      expect(capped.json).toMatchObject({ success: false, code: 'frequency_capped' });
      // New rows take ids after the copied ones.
      const next = await call(onPostgres.url, key, '/api/v1/requests/send', {
        customerName: 'New Customer',
        customerPhone: '+14155550199',
        channel: 'sms',
      });
      expect(next.status).toBe(200);
      expect((await postgresCounts(database.url)).requests).toBe(before.requests! + 1);
    } finally {
      await onPostgres.stop();
    }
  }, 120_000);

  it('says in one line what is missing', async () => {
    await expect(
      runCli('api', ['migrate-to-postgres'], { env: { DATABASE_PATH: env.DATABASE_PATH } }),
    ).rejects.toThrow(/exited 2.*one postgres:\/\/ URL/s);
    await expect(
      runCli('api', ['migrate-to-postgres', 'postgres://127.0.0.1:1/none'], {
        env: { DATABASE_PATH: path.join(tmp.dir, 'absent.db') },
      }),
    ).rejects.toThrow(/exited 1.*There is no service database at/s);
  });
});
