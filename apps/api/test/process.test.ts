import { once } from 'node:events';
import { readFileSync, statSync } from 'node:fs';
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
import { type RunningApp, startApp, tempDir } from '../../../test/support/processes.ts';

// The service as production runs it: `node src/main.ts` as a real process, configured by its
// environment (the CLI against such a process: cli.test.ts).

const tmp = tempDir('rd-api-process-');
const env = {
  DATABASE_PATH: path.join(tmp.dir, 'api.db'),
  DEMO_KEY_FILE: path.join(tmp.dir, 'keys', 'demo-api-key'),
  SEED_DEMO: '1',
  DEV_OUTBOX: '1',
};
let app: RunningApp;
let demoKey: string;

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

describe('the ready signal', () => {
  it('is written even when LOG_LEVEL hides info lines', async () => {
    const quiet = await startApp('api', { env: { ...env, LOG_LEVEL: 'warn' } });
    try {
      const health = await fetch(`${quiet.url}/healthz`);
      expect(health.status).toBe(200);
      expect(quiet.logs.filter((line) => line.includes('"level":30'))).toHaveLength(1);
    } finally {
      await quiet.stop();
    }
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

describe('shutdown', () => {
  it('stops on SIGTERM even when nobody reads its output any more', async () => {
    const app = await startApp('api', {
      env: { ...env, SEED_DEMO: '0', DATABASE_PATH: path.join(tmp.dir, 'closed-stdout.db') },
    });
    try {
      // Whoever read its log is gone (a supervisor or a terminal pipe closed): the shutdown's own
      // lines are the first writes to fail.
      app.child.stdout!.destroy();
      const exited = once(app.child, 'exit');
      app.child.kill('SIGTERM');
      const outcome = await Promise.race([
        exited.then(([code, signal]) => `exit ${code ?? signal}`),
        new Promise((resolve) => setTimeout(() => resolve('still running 10 s after SIGTERM'), 10_000)),
      ]);
      expect(outcome, app.logs.slice(-5).join('\n')).toBe('exit 0');
    } finally {
      app.child.kill('SIGKILL');
    }
  }, 20_000);
});
