import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { behaviours, type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { startBff, type TestBff } from './support/bff.ts';
import { raw } from './support/client.ts';
import { SMS } from './support/fixtures.ts';

// BFF_WORKERS=2: node:cluster workers share one port; sessions, throttling and the journal live
// in SQLite, so every worker sees the same state, and a logout ends the session in all of them.

let upstream: FakeUpstream;
let bff: TestBff;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  bff = await startBff(upstream.url, { BFF_WORKERS: '2', UPSTREAM_TIMEOUT_MS: '20000' });
});

afterAll(async () => {
  await bff?.stop();
  await upstream?.close();
});

const workerPids = () =>
  bff.app.logs
    .filter((line) => line.includes('"worker listening"'))
    .map((line) => (JSON.parse(line) as { pid: number }).pid);

/** Each call opens a new connection, so calls are spread over the workers. */
const fresh = (path: string, cookie: string) =>
  raw(bff.url, 'GET', path, { cookie, accept: 'application/json' });

describe('a clustered BFF', () => {
  it('announces one listening line for two workers, after both workers’ own lines', () => {
    // The ready line promises that every worker listens, and says so after them: whoever reads it
    // (these tests, npm start, a supervisor) finds every worker's line already written.
    const lines = bff.app.logs;
    const ready = lines.flatMap((line, i) => (line.includes('"msg":"listening"') ? [i] : []));
    const workers = lines.flatMap((line, i) => (line.includes('"worker listening"') ? [i] : []));
    expect(ready).toHaveLength(1);
    expect(workers).toHaveLength(2);
    expect(workers.filter((i) => i > ready[0]!)).toEqual([]);
  });

  it('serves one session from every worker, and a logout ends it in all of them at once', async () => {
    const client = await bff.owner();
    const cookie = client.cookie!;
    const before = await Promise.all(Array.from({ length: 8 }, () => fresh('/auth/me', cookie)));
    expect(before.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(before.map((r) => r.headers['x-request-id'])).size).toBe(8);

    expect((await client.post('/auth/logout', {})).status).toBe(200);
    const after = await Promise.all(Array.from({ length: 8 }, () => fresh('/api/v1/reviews', cookie)));
    expect(after.map((r) => r.status)).toEqual(Array(8).fill(401));
  });

  it('aggregates metrics across workers', async () => {
    const client = await bff.owner();
    await Promise.all(Array.from({ length: 10 }, () => fresh('/api/v1/reviews', client.cookie!)));
    const metrics = await raw(bff.url, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    const line = metrics.text
      .split('\n')
      .find((l) => l.startsWith('bff_http_requests_total{route="reviews",method="GET",status="200"}'));
    expect(Number(line?.split(' ').at(-1))).toBeGreaterThanOrEqual(10);
  });

  it('replaces a worker that dies, marking its in-flight sends unknown', async () => {
    const client = await bff.owner();
    upstream.behave(behaviours.hang());
    const key = crypto.randomUUID();
    const pending = client.send(SMS, key).catch(() => null);
    const until = Date.now() + 5_000;
    while (upstream.count('/api/v1/requests/send') === 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20)); // poll: a look again at the upstream
    // The worker holding the send dies (the journal records which process forwarded it).
    const db = new DatabaseSync(bff.databasePath, { readOnly: true });
    const row = db.prepare(`SELECT owner_pid FROM sends WHERE outcome = 'in_flight'`).get() as {
      owner_pid: number;
    };
    db.close();
    expect(workerPids()).toContain(row.owner_pid);
    process.kill(row.owner_pid, 'SIGKILL');
    await pending;
    upstream.behave(null);
    const deadline = Date.now() + 15_000;
    // poll: a look again at the workers
    while (workerPids().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(workerPids()).toHaveLength(3);
    expect(bff.app.logs.join('\n')).toMatch(/in-flight sends of a stopped worker marked unknown/);

    const again = await bff.owner();
    const history = await again.get('/bff/sends?limit=1');
    expect(history.json.data.sends[0]).toMatchObject({ outcome: 'unknown' });
    expect((await again.send(SMS, key)).status).toBe(409);
    expect(upstream.count('/api/v1/requests/send')).toBe(1);
  });
});
