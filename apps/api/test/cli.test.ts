import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { API_KEY_PATTERN } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, runCli, startApp, tempDir } from '../../../test/support/processes.ts';
import { ENGINES, type TestDatabaseConfig, testDatabase } from './helpers.ts';

// The CLI as operators use it: a separate process on the same database while the service
// (a real `node src/main.ts` process) serves; every change takes effect within a second (the
// service trusts a key it read for that long, docs/decisions/0021-api-key-and-settings-cache.md).

describe.each(ENGINES)('%s', (engine) => {
  const tmp = tempDir('rd-api-cli-');
  let database: TestDatabaseConfig;
  /** Where the service and the CLI find the database and the demo key. */
  let shared: Record<string, string>;
  let app: RunningApp;

  const cli = (args: string[]) => runCli('api', args, { env: shared });
  const lastLine = (out: string) => out.trimEnd().split('\n').at(-1)!;
  /** The status the server answers `key` with once a second (and a request's time) has passed. */
  const statusWithin = async (key: string, status: number): Promise<number> => {
    const end = Date.now() + 1_500;
    for (;;) {
      const answer = (await fetch(`${app.url}/api/v1/reviews`, { headers: { 'x-api-key': key } })).status;
      if (answer === status || Date.now() > end) return answer;
      await new Promise((resolve) => setTimeout(resolve, 25)); // poll: a look again at the status
    }
  };

  beforeAll(async () => {
    database = await testDatabase(engine, tmp.dir);
    shared = {
      DATABASE_PATH: database.config.databasePath,
      ...(database.config.databaseUrl ? { DATABASE_URL: database.config.databaseUrl } : {}),
      DEMO_KEY_FILE: path.join(tmp.dir, 'keys', 'demo-api-key'),
    };
    app = await startApp('api', { env: { ...shared, SEED_DEMO: '1', DEV_OUTBOX: '1' } });
    // On PostgreSQL the service never touches the file.
    if (database.config.databaseUrl && existsSync(database.config.databasePath)) {
      throw new Error('the service opened the SQLite file, not DATABASE_URL');
    }
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    await database?.drop();
    tmp.cleanup();
  });

  describe('the CLI against the running server (same database)', () => {
    it('creates a business and a key (printed once, on the last line) that the server accepts at once', async () => {
      expect(
        await cli([
          'business',
          'create',
          'corner',
          'Corner',
          'Books',
          '--review-url',
          'https://example.com/r',
        ]),
      ).toContain('Created business corner (Corner Books)');
      const out = await cli([
        'key',
        'create',
        '--business',
        'corner',
        '--scopes',
        'reviews:read,review_requests:write',
      ]);
      const key = lastLine(out);
      expect(key).toMatch(API_KEY_PATTERN);
      expect(out.split(key).length - 1).toBe(1);

      const list = await fetch(`${app.url}/api/v1/reviews`, { headers: { authorization: `Bearer ${key}` } });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { data: { total: number } }).data.total).toBe(0);
      const analytics = await fetch(`${app.url}/api/v1/analytics`, { headers: { 'x-api-key': key } });
      expect(analytics.status).toBe(403);

      const keys = await cli(['key', 'list']);
      expect(keys).not.toContain(key);
      expect(keys).toContain(key.slice(0, 12));
      const id = keys
        .split('\n')
        .find((line) => line.includes(key.slice(0, 12)))!
        .split(/\s+/)[0]!;

      // Rotate: a new key on the last line; the old one stops working.
      const rotated = lastLine(await cli(['key', 'rotate', id]));
      expect(rotated).toMatch(API_KEY_PATTERN);
      expect(await statusWithin(key, 401)).toBe(401);
      expect((await fetch(`${app.url}/api/v1/reviews`, { headers: { 'x-api-key': rotated } })).status).toBe(
        200,
      );

      // Revoke the new one.
      const newId = (await cli(['key', 'list']))
        .split('\n')
        .find((line) => line.includes(rotated.slice(0, 12)))!
        .split(/\s+/)[0]!;
      expect(await cli(['key', 'revoke', newId])).toContain(`Revoked key ${newId}`);
      expect(await statusWithin(rotated, 401)).toBe(401);
    });

    it('imports synced reviews from CSV and JSON, idempotently', async () => {
      const csv = path.join(tmp.dir, 'reviews.csv');
      writeFileSync(
        csv,
        'rating,platform,review_date,author_name,text,response_status,external_id\n' +
          '5,google,2025-01-02,Ann B.,"Lovely, quiet",responded,g-1\n' +
          '2,yelp,2025-01-03T10:00:00Z,,Too loud,,y-1\n',
      );
      const json = path.join(tmp.dir, 'reviews.json');
      writeFileSync(
        json,
        JSON.stringify([{ rating: 4, platform: 'facebook', review_date: '2025-02-01', external_id: 'f-1' }]),
      );
      expect(await cli(['import-reviews', csv, '--business', 'corner'])).toContain('Imported 2 reviews');
      expect(await cli(['import-reviews', json, '--business', 'corner'])).toContain('Imported 1 reviews');
      expect(await cli(['import-reviews', csv, '--business', 'corner'])).toContain(
        'Imported 0 reviews; updated 0 changed since; skipped 2',
      );

      const bad = path.join(tmp.dir, 'bad.json');
      writeFileSync(bad, JSON.stringify([{ rating: 9, platform: 'google', review_date: '2025-01-01' }]));
      await expect(cli(['import-reviews', bad, '--business', 'corner'])).rejects.toThrow(/row 1: rating/);
      await expect(
        cli(['key', 'create', '--business', 'nowhere', '--scopes', 'reviews:read']),
      ).rejects.toThrow(/No business with slug "nowhere"/);
      await expect(cli(['key', 'create', '--business', 'corner', '--scopes', 'admin'])).rejects.toThrow(
        /--scopes/,
      );
      expect(lastLine(await cli(['check-rollups']))).toBe('Counters and roll-ups match a recount');
    });

    it('seed-demo again changes nothing and keeps the key file', async () => {
      const before = readFileSync(shared.DEMO_KEY_FILE!, 'utf8');
      expect(await cli(['seed-demo'])).toContain('Already seeded');
      expect(readFileSync(shared.DEMO_KEY_FILE!, 'utf8')).toBe(before);
    });
  });
});
