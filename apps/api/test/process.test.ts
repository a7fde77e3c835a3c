import { once } from 'node:events';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expectNodeRefusals } from '@review-desk/server/test-support/node-refusals';
import {
  API_KEY_PATTERN,
  analyticsOutputSchema,
  createApiClient,
  DEMO_BUSINESS,
  reviewListOutputSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../../../test/support/http.ts';
import { type RunningApp, startApp, tempDir } from '../../../test/support/processes.ts';
import { until } from './helpers.ts';

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
/** Waits until the process's log, written a moment after each answer, holds what is sought. */
const logged = (holds: (logs: string) => boolean) => until(() => holds(app.logs.join('\n')));
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
      /^api exited \(1\) before listening:\nInvalid configuration: PORT must be a port number from 0 to 65535/,
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
    await logged((logs) => logs.includes('"url":"/dev/outbox.json'));
    const logs = app.logs.join('\n');
    expect(logs).toContain('"msg":"request"');
    for (const secret of [demoKey, phone, 'secret.person', token]) expect(logs).not.toContain(secret);
    expect(logs).toContain('/r/[token]');
    expect(logs).toContain('api_key=[redacted]');
  });
});

describe('a key anywhere in the URL', () => {
  it('is refused without being echoed, and never logged — as a parameter name without a value too', async () => {
    for (const target of [
      `/api/v1/reviews?${demoKey}`,
      `/api/v1/reviews?page=1&${demoKey}`,
      `/api/v1/reviews?${encodeURIComponent(demoKey)}=1`,
      `/api/v1/reviews?status=${demoKey}`,
    ]) {
      const reply = await fetch(`${app.url}${target}`, { headers: { 'x-api-key': demoKey } });
      const text = await reply.text();
      expect([target, reply.status, JSON.parse(text).code]).toEqual([target, 400, 'key_in_query']);
      expect(text).not.toContain(demoKey.slice(8));
    }
    await fetch(`${app.url}/nowhere/${demoKey}`);
    await logged((logs) => logs.includes('"url":"/nowhere/'));
    const logs = app.logs.join('\n');
    expect(logs).not.toContain(demoKey.slice(8));
    expect(logs).toContain('/api/v1/reviews?page=1&[redacted]');
  });
});

describe('requests Node would answer by itself', () => {
  it('get the envelope (400 without Host, 417 for an unknown Expect) and a log line like any refusal', async () => {
    await expectNodeRefusals((bytes) => rawExchange(app.url, bytes), {
      withoutHost: 'GET /healthz HTTP/1.1\r\n\r\n',
      withExpect: 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n',
    });
    await logged((logs) => logs.includes('"code":"expectation_failed"'));
    const lines = app.logs.filter((line) => line.includes('"msg":"request"'));
    expect(lines.some((l) => l.includes('"status":400') && l.includes('"code":"host_missing"'))).toBe(true);
    expect(lines.some((l) => l.includes('"status":417') && l.includes('"code":"expectation_failed"'))).toBe(
      true,
    );
  });
});

describe('/metrics', () => {
  it('answers loopback callers, and refuses what came through a proxy with the envelope', async () => {
    const local = await fetch(`${app.url}/metrics`);
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('api_http_requests_total');
    const proxied = await fetch(`${app.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(proxied.status).toBe(403);
    expect(await proxied.json()).toMatchObject({ success: false, code: 'metrics_refused' });
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
