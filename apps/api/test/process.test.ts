import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  API_KEY_PATTERN,
  analyticsOutputSchema,
  createApiClient,
  DEMO_BUSINESS,
  reviewListOutputSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, runCli, startApp, tempDir } from '../../../test/support/processes.ts';

// The service as production runs it: `node src/main.ts` as a real process, configured by its
// environment, administered through the CLI on the same database file while it serves.

const tmp = tempDir('rd-api-process-');
const env = {
  DATABASE_PATH: path.join(tmp.dir, 'api.db'),
  DEMO_KEY_FILE: path.join(tmp.dir, 'keys', 'demo-api-key'),
  SEED_DEMO: '1',
  DEV_OUTBOX: '1',
};
let app: RunningApp;
let demoKey: string;

const cli = (args: string[]) =>
  runCli('api', args, { env: { DATABASE_PATH: env.DATABASE_PATH, DEMO_KEY_FILE: env.DEMO_KEY_FILE } });
const lastLine = (out: string) => out.trimEnd().split('\n').at(-1)!;

beforeAll(async () => {
  app = await startApp('api', { env });
  demoKey = readFileSync(env.DEMO_KEY_FILE, 'utf8').trim();
}, 60_000);
afterAll(async () => {
  await app?.stop();
  tmp.cleanup();
});

describe('configuration', () => {
  it('a bad variable stops the start with one clear line', async () => {
    await expect(startApp('api', { env: { ...env, PORT: 'eighty' } })).rejects.toThrow(
      /Invalid configuration: PORT: PORT must be a whole number/,
    );
    await expect(startApp('api', { env: { ...env, PUBLIC_ORIGIN: 'example.com/path' } })).rejects.toThrow(
      /Invalid configuration: PUBLIC_ORIGIN/,
    );
  });
});

describe('the demo seed', () => {
  it('writes a working key with all three scopes to a 0600 file, and serves the demo data', async () => {
    expect(demoKey).toMatch(API_KEY_PATTERN);
    expect(statSync(env.DEMO_KEY_FILE).mode & 0o777).toBe(0o600);
    const client = createApiClient({ baseUrl: app.url, apiKey: demoKey, origin: app.url });
    const reviews = await client.reviews({ limit: 100 });
    expect(reviews.ok).toBe(true);
    if (!reviews.ok) return;
    expect(reviews.data.total).toBeGreaterThanOrEqual(1900);
    expect(reviews.headers.get('ratelimit-limit')).toBe('1200');
    const strict = successEnvelopeSchema(reviewListOutputSchema);
    const raw = await fetch(`${app.url}/api/v1/reviews?limit=100`, { headers: { 'x-api-key': demoKey } });
    const page = strict.parse(await raw.json()).data;
    const platforms = new Set(page.reviews.map((r) => r.platform));
    expect(platforms.has('direct')).toBe(true);
    expect(platforms.has('google')).toBe(true);

    const analytics = await fetch(`${app.url}/api/v1/analytics?days=365`, {
      headers: { 'x-api-key': demoKey },
    });
    const data = successEnvelopeSchema(analyticsOutputSchema).parse(await analytics.json()).data;
    expect(data.requests.total).toBeGreaterThan(2000);
    expect(data.requests.failed).toBeGreaterThan(0);
    expect(data.requests.feedback).toBeGreaterThan(0);
    expect(data.requests.handoffs).toBeGreaterThan(0);
    expect(Object.values(data.requests.byChannel).every((n) => n > 0)).toBe(true);
    expect(data.synced.total).toBeGreaterThan(0);
    expect(data.reviews.responded).toBeGreaterThan(0);
    expect(data.reviews.ignored).toBeGreaterThan(0);
    expect(data.reviews.pending).toBeGreaterThan(0);

    const sent = await client.send({ customerName: 'Walk-in', channel: 'link' });
    expect(sent.ok).toBe(true);
  });
});

describe('the CLI against the running server (same database file)', () => {
  it('creates a business and a key (printed once, on the last line) that the server accepts at once', async () => {
    expect(
      await cli(['business', 'create', 'corner', 'Corner', 'Books', '--review-url', 'https://example.com/r']),
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
    expect((await fetch(`${app.url}/api/v1/reviews`, { headers: { 'x-api-key': key } })).status).toBe(401);
    expect((await fetch(`${app.url}/api/v1/reviews`, { headers: { 'x-api-key': rotated } })).status).toBe(
      200,
    );

    // Revoke the new one.
    const newId = (await cli(['key', 'list']))
      .split('\n')
      .find((line) => line.includes(rotated.slice(0, 12)))!
      .split(/\s+/)[0]!;
    expect(await cli(['key', 'revoke', newId])).toContain(`Revoked key ${newId}`);
    expect((await fetch(`${app.url}/api/v1/reviews`, { headers: { 'x-api-key': rotated } })).status).toBe(
      401,
    );
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
      'Imported 0 reviews; skipped 2',
    );

    const bad = path.join(tmp.dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ rating: 9, platform: 'google', review_date: '2025-01-01' }]));
    await expect(cli(['import-reviews', bad, '--business', 'corner'])).rejects.toThrow(/row 1: rating/);
    await expect(cli(['key', 'create', '--business', 'nowhere', '--scopes', 'reviews:read'])).rejects.toThrow(
      /No business with slug "nowhere"/,
    );
    await expect(cli(['key', 'create', '--business', 'corner', '--scopes', 'admin'])).rejects.toThrow(
      /--scopes/,
    );
    expect(lastLine(await cli(['check-rollups']))).toBe('Counters and roll-ups match a recount');
  });

  it('seed-demo again changes nothing and keeps the key file', async () => {
    const before = readFileSync(env.DEMO_KEY_FILE, 'utf8');
    expect(await cli(['seed-demo'])).toContain('Already seeded');
    expect(readFileSync(env.DEMO_KEY_FILE, 'utf8')).toBe(before);
  });
});

describe('logs', () => {
  it('never contain keys, contact details or link tokens', async () => {
    const phone = '+14155557788';
    const client = createApiClient({ baseUrl: app.url, apiKey: demoKey, origin: app.url });
    const sent = await client.send({
      customerPhone: phone,
      customerEmail: 'secret.person@example.com',
      channel: 'both',
    });
    expect(sent.ok).toBe(true);
    if (!sent.ok) return;
    const token = sent.data.reviewLink.split('/r/')[1]!;
    await fetch(sent.data.reviewLink);
    await fetch(`${app.url}/api/v1/reviews?api_key=${demoKey}`);
    await fetch(`${app.url}/dev/outbox.json?to=${encodeURIComponent(phone)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logs = app.logs.join('\n');
    expect(logs).toContain('"msg":"request"');
    for (const secret of [demoKey, phone, 'secret.person', token]) expect(logs).not.toContain(secret);
    expect(logs).toContain('/r/[token]');
    expect(logs).toContain('api_key=[redacted]');
  });
});

describe('lifecycle', () => {
  it('stops on SIGTERM with exit code 0, and a restart with SEED_DEMO=1 duplicates nothing', async () => {
    const countBefore = await fetch(`${app.url}/api/v1/reviews`, { headers: { 'x-api-key': demoKey } }).then(
      (r) => r.json() as Promise<{ data: { total: number } }>,
    );
    const exit = new Promise<number | null>((resolve) => app.child.once('exit', (code) => resolve(code)));
    await app.stop('SIGTERM');
    expect(await exit).toBe(0);
    expect(app.logs.join('\n')).toContain('"msg":"stopped"');

    app = await startApp('api', { env });
    expect(readFileSync(env.DEMO_KEY_FILE, 'utf8').trim()).toBe(demoKey);
    const countAfter = await fetch(`${app.url}/api/v1/reviews`, { headers: { 'x-api-key': demoKey } }).then(
      (r) => r.json() as Promise<{ data: { total: number } }>,
    );
    expect(countAfter.data.total).toBe(countBefore.data.total);
    expect(app.logs.join('\n')).toContain('demo data already present');
    expect(app.logs.join('\n')).toContain(`"business":"${DEMO_BUSINESS.slug}"`);
  });
});
