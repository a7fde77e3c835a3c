import { readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expectNodeRefusals } from '@review-desk/server/test-support/node-refusals';
import { describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../../test/support/fault-upstream.ts';
import { rawExchange } from '../../../test/support/http.ts';
import { startApp, tempDir } from '../../../test/support/processes.ts';
import { newApiKey, waitFor } from '../../../test/support/stack.ts';
import { startBff, type TestBff, useBffOnFakeUpstream } from './support/bff.ts';
import type { DashboardClient } from './support/client.ts';

// What a careful reviewer checks at the edges of the BFF: caching of personal data, what Node
// would answer by itself, who reads /metrics, what reaches the logs, the files it creates, and
// how it refuses to start.

let upstream: FakeUpstream;
let bff: TestBff;
let owner: DashboardClient;

useBffOnFakeUpstream((stack) => ({ upstream, bff, owner } = stack));

const raw = (bytes: string) => rawExchange(bff.url, bytes);

describe('caching', () => {
  it('never lets a cache keep an authenticated answer, personal data or an error, and varies on the cookie', async () => {
    const answers = {
      me: await owner.get('/auth/me'),
      sends: await owner.get('/bff/sends'),
      users: await owner.get('/bff/users'),
      reviews: await owner.get('/api/v1/reviews'),
      signedOut: await bff.client().get('/auth/me'),
      notFound: await owner.get('/api/v1/nothing'),
      badQuery: await owner.get('/bff/sends?page=0'),
    };
    for (const [name, reply] of Object.entries(answers)) {
      expect([name, reply.headers.get('cache-control')]).toEqual([name, 'no-store']);
      expect([name, reply.headers.get('vary')]).toEqual([name, expect.stringMatching(/\bCookie\b/)]);
    }
    expect(answers.me.status).toBe(200);
    expect(answers.signedOut.status).toBe(401);
  });
});

describe('requests Node would answer by itself', () => {
  it('get the envelope (400 without Host, 417 for an unknown Expect) and an access line like any refusal', async () => {
    await expectNodeRefusals(raw, {
      withoutHost: 'GET /auth/me HTTP/1.1\r\n\r\n',
      withExpect: 'POST /auth/login HTTP/1.1\r\nHost: x\r\nExpect: 202-maybe\r\n\r\n',
    });
    // The access log is written in batches: wait for the second refusal's line.
    await waitFor(() => bff.app.logs.some((l) => l.includes('"status":417')), 5_000, 'the access lines');
    const refused = bff.app.logs.filter((l) => l.includes('"route":"refused"'));
    expect(refused.some((l) => l.includes('"status":400') && l.includes('"path":"/auth/me"'))).toBe(true);
    expect(refused.some((l) => l.includes('"status":417') && l.includes('"path":"/auth/login"'))).toBe(true);
  });
});

describe('/metrics', () => {
  it('answers loopback callers, refuses what came through a proxy, and lets the token through', async () => {
    expect((await bff.client().get('/metrics')).status).toBe(200);
    const proxied = await bff.client().get('/metrics', { 'x-forwarded-for': '203.0.113.7' });
    expect([proxied.status, proxied.json.code]).toEqual([403, 'metrics_refused']);
    const token = 'a-metrics-token-for-tests';
    const withToken = await startBff(upstream.url, { METRICS_TOKEN: token });
    try {
      const scraper = withToken.client();
      const allowed = await scraper.get('/metrics', {
        'x-forwarded-for': '203.0.113.7',
        authorization: `Bearer ${token}`,
      });
      expect(allowed.status).toBe(200);
      expect(allowed.text).toContain('bff_http_requests_total');
      const wrong = await scraper.get('/metrics', {
        'x-forwarded-for': '203.0.113.7',
        authorization: 'Bearer nope',
      });
      expect(wrong.status).toBe(403);
    } finally {
      await withToken.stop();
    }
  });
});

describe('logs', () => {
  it('never hold anything that looks like a key, wherever it was in the path', async () => {
    const key = newApiKey();
    await owner.get(`/bff/${key}`);
    const last = await owner.get(`/api/v1/reviews/${encodeURIComponent(key)}`);
    // The access log is written in batches: wait for the last request's line.
    const id = last.headers.get('x-request-id')!;
    await waitFor(() => bff.app.logs.some((l) => l.includes(id)), 5_000, 'the access line');
    const logs = bff.app.logs.join('\n');
    expect(logs).not.toContain(key.slice(8));
    expect(logs).toContain('"path":"/bff/[redacted]"');
  });
});

describe('files', () => {
  it('creates its data folder readable by this user only, and its database files 0600', () => {
    const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
    expect(mode(path.dirname(bff.databasePath))).toBe('700');
    const files = readdirSync(path.dirname(bff.databasePath)).filter((f) => f.startsWith('bff.db'));
    expect(files).toEqual(expect.arrayContaining(['bff.db', 'bff.db-wal', 'bff.db-shm']));
    for (const file of files)
      expect([file, mode(path.join(path.dirname(bff.databasePath), file))]).toEqual([file, '600']);
  });
});

describe('a start that cannot happen', () => {
  it('a database written by a newer version stops with one plain line naming it and the variable', async () => {
    const temp = tempDir('bff-newer-');
    const databasePath = path.join(temp.dir, 'bff.db');
    const settings = {
      UPSTREAM_URL: upstream.url,
      UPSTREAM_API_KEY: newApiKey(),
      BFF_DATABASE_PATH: databasePath,
    };
    try {
      await (await startApp('bff', { env: settings })).stop();
      const db = new DatabaseSync(databasePath);
      db.prepare(
        `INSERT INTO schema_migrations (component, version, name, applied_at) VALUES ('bff', 999, '999-future.sql', '2030-01-01')`,
      ).run();
      db.close();
      const error = await startApp('bff', { env: settings }).catch((e: Error) => e);
      const lines = (error as Error).message.split('\n');
      expect(lines[0]).toBe('bff exited (1) before listening:');
      expect(lines.at(-1)).toMatch(
        /^The database .*bff\.db \(BFF_DATABASE_PATH\) was written by a newer version of Review Desk \(schema 999, this version knows up to \d+; bff tables\)\./,
      );
      expect(lines.join('\n')).not.toMatch(/\n\s+at /);
    } finally {
      temp.cleanup();
    }
  });

  it('a taken PORT stops with one plain line naming the port and the variable', async () => {
    const held = net.createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const port = (held.address() as net.AddressInfo).port;
    const temp = tempDir('bff-port-');
    try {
      const error = await startApp('bff', {
        env: {
          PORT: String(port),
          UPSTREAM_URL: upstream.url,
          UPSTREAM_API_KEY: newApiKey(),
          BFF_DATABASE_PATH: path.join(temp.dir, 'bff.db'),
        },
      }).catch((e: Error) => e);
      const lines = (error as Error).message.split('\n');
      expect(lines[0]).toBe('bff exited (1) before listening:');
      // The refusal is a plain line; the lines before it are the start's own log lines, none an
      // error, none a stack trace.
      expect(lines).toContain(
        `Port ${port} is in use (PORT=${port}): stop what uses it, or set PORT to another port.`,
      );
      const others = lines.slice(1).filter((l) => !l.startsWith('Port '));
      for (const line of others) expect(JSON.parse(line).level, line).toBeLessThan(50);
      expect(lines.join('\n')).not.toMatch(/\n\s+at /);
    } finally {
      held.close();
      temp.cleanup();
    }
  });

  it('a configuration error is one plain line too', async () => {
    const error = await startApp('bff', {
      env: { UPSTREAM_URL: upstream.url, UPSTREAM_API_KEY: newApiKey(), FREQUENCY_CAP_DAYS: 'many' },
    }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      'bff exited (1) before listening:\nInvalid configuration: FREQUENCY_CAP_DAYS must be a whole number from 0 to 3650',
    );
  });
});
