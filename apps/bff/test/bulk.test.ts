import type { BulkJob } from '@review-desk/shared';
import { FREQUENCY_CAP_DAYS_DEFAULT } from '@review-desk/shared';
import { DAY_MS } from '@review-desk/shared/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeUpstream,
  faults,
  healthyAnswer,
  json,
  startFakeUpstream,
} from '../../../test/support/fault-upstream.ts';
import { type SystemApi, startSystemApi, waitFor } from '../../../test/support/stack.ts';
import { addUser, startBff, type TestBff } from './support/bff.ts';
import type { DashboardClient } from './support/client.ts';
import { STAFF } from './support/fixtures.ts';

// List sends through the real BFF process: against the real API (its outbox counts what went
// out), across a SIGKILL and restart, at a 429's pace, and with two BFF processes on one database.

// Several lists of one person run at once here: the limit on lists in progress is raised for it.
const FAST = { BULK_SEND_RATE_PER_MINUTE: '100000', BULK_LEASE_SECONDS: '1.5', BULK_USER_LISTS_MAX: '5' };
/** The API's answer over its request limit: wait one second. */
const overTheLimit = faults.rateLimited(1);
let api: SystemApi;
let apiKey: string;

/** Every message in the API's outbox, counted per recipient. */
async function outboxByRecipient(): Promise<Map<string, number>> {
  const response = await fetch(`${api.url}/dev/outbox.json?limit=1000`);
  const body = (await response.json()) as { data: { messages: { to: string }[] } };
  const counts = new Map<string, number>();
  for (const m of body.data.messages) counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
  return counts;
}

const emails = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    customerName: `Guest ${i + 1}`,
    customerEmail: `${tag}-${i}@example.com`,
  }));

async function startJob(client: DashboardClient, rows: unknown[], extra: Record<string, unknown> = {}) {
  const reply = await client.post('/bff/bulk-sends', { channel: 'email', rows, ...extra });
  expect(reply.status, reply.text).toBe(202);
  return reply.json.data.id as string;
}

async function job(client: DashboardClient, id: string): Promise<BulkJob> {
  const reply = await client.get(`/bff/bulk-sends/${id}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.json.data as BulkJob;
}

async function finished(client: DashboardClient, id: string, ms = 30_000): Promise<BulkJob> {
  let last: BulkJob | undefined;
  await waitFor(
    async () => {
      last = await job(client, id);
      return last.status !== 'running';
    },
    ms,
    `list send ${id} finished`,
  );
  return last as BulkJob;
}

beforeAll(async () => {
  api = await startSystemApi({ RATE_LIMIT_PER_MINUTE: '0' });
  apiKey = await api.createKey();
}, 60_000);

afterAll(async () => {
  await api?.cleanup();
});

describe('list sends against the real API', () => {
  let bff: TestBff;
  let owner: DashboardClient;
  beforeAll(async () => {
    bff = await startBff(api.url, { UPSTREAM_API_KEY: apiKey, ...FAST });
    owner = await bff.owner();
  });
  afterAll(() => bff?.stop());

  it('answers at once, then sends each of 50 rows exactly once; the outbox holds one message each', async () => {
    const rows = emails('fifty', 50);
    const started = Date.now();
    const id = await startJob(owner, rows);
    const answeredMs = Date.now() - started;
    const done = await finished(owner, id);
    expect(done.status).toBe('done');
    expect(done.counts).toMatchObject({ total: 50, sent: 50, pending: 0, unknown: 0, refused: 0 });
    expect(done.createdBy).toBe('owner@example.com');
    const outbox = await outboxByRecipient();
    for (const row of rows) expect(outbox.get(row.customerEmail), row.customerEmail).toBe(1);
    expect(answeredMs).toBeLessThan(5_000);

    const page = await owner.get(`/bff/bulk-sends/${id}/rows?limit=10&page=5`);
    expect(page.json.data).toMatchObject({ page: 5, limit: 10, total: 50 });
    expect(page.json.data.rows.map((r: { index: number }) => r.index)).toEqual([
      40, 41, 42, 43, 44, 45, 46, 47, 48, 49,
    ]);
    expect(page.json.data.rows.every((r: { requestId: string | null }) => r.requestId)).toBe(true);
    // Each row is in the journal, as single sends are: the send history lists them.
    const history = await owner.get(`/bff/sends?contact=${encodeURIComponent(rows[7]!.customerEmail)}`);
    expect(history.json.data.total).toBe(1);
    const list = await owner.get('/bff/bulk-sends');
    expect(list.json.data.jobs.map((j: BulkJob) => j.id)).toContain(id);
  });

  it('refuses a list with a bad row whole, naming each bad row in the single form’s words', async () => {
    const rows = [...emails('bad', 3), { customerEmail: 'not-an-email' }, { customerName: 'No contact' }];
    const reply = await owner.post('/bff/bulk-sends', { channel: 'email', rows });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('validation_failed');
    expect(reply.json.fields['rows.3.customerEmail']).toContain('valid email address');
    expect(reply.json.fields['rows.4.customerEmail']).toContain('required');
    expect(reply.json.error).toContain('Row 4');
    expect((await outboxByRecipient()).get('bad-0@example.com')).toBeUndefined();
  });

  it('skips contacts sent to within the frequency cap window when asked, and the rows record why', async () => {
    const rows = emails('fifty', 2).concat(emails('recent', 2));
    const id = await startJob(owner, rows, { skipRecent: true });
    const done = await finished(owner, id);
    expect(done.counts).toMatchObject({ total: 4, skipped: 2, sent: 2 });
    const page = await owner.get(`/bff/bulk-sends/${id}/rows`);
    expect(page.json.data.rows[0]).toMatchObject({ outcome: 'skipped', code: 'recently_sent' });
    // The reason says when the contact may be asked again: the earlier request's day plus the window.
    const [sentOn, againOn] = [
      ...(page.json.data.rows[0].detail as string).matchAll(/\d{4}-\d{2}-\d{2}/g),
    ].map((m) => Date.parse(m[0]));
    expect(page.json.data.rows[0].detail).toContain('You can ask again on');
    expect(againOn! - sentOn!).toBe(FREQUENCY_CAP_DAYS_DEFAULT * DAY_MS);
    const csv = await owner.get(`/bff/bulk-sends/${id}/results.csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.text.split('\r\n')[3]).toContain(',sent,');
  });

  it('“text if there is a phone, else email”: each row by the contact it has, and only to that one', async () => {
    const rows = [
      { customerName: 'Phone Only', customerPhone: '+1 415 555 0171' },
      { customerName: 'Email Only', customerEmail: 'either-email@example.com' },
      { customerName: 'Both', customerPhone: '+1 415 555 0172', customerEmail: 'either-both@example.com' },
    ];
    const reply = await owner.post('/bff/bulk-sends', { channel: 'sms_or_email', rows });
    expect(reply.status, reply.text).toBe(202);
    const done = await finished(owner, reply.json.data.id);
    expect(done).toMatchObject({ channel: 'sms_or_email', counts: { total: 3, sent: 3, refused: 0 } });
    const outbox = await outboxByRecipient();
    expect(outbox.get('+14155550171')).toBe(1);
    expect(outbox.get('either-email@example.com')).toBe(1);
    // A row with both is a text: its email is not messaged.
    expect(outbox.get('+14155550172')).toBe(1);
    expect(outbox.get('either-both@example.com')).toBeUndefined();
    const none = await owner.post('/bff/bulk-sends', {
      channel: 'sms_or_email',
      rows: [{ customerName: 'Nobody' }],
    });
    expect(none.status).toBe(400);
    expect(none.json.error).toContain('Row 1: Customer email is required to send by email');
  });

  it('staff control only their own list sends; a job is not found at another location or by id guess', async () => {
    const id = await startJob(owner, emails('ctl', 1));
    await finished(owner, id);
    const resume = await owner.post(`/bff/bulk-sends/${id}/resume`, {});
    expect(resume.status).toBe(409);
    expect(resume.json.code).toBe('bulk_state_conflict');
    const missing = await owner.get('/bff/bulk-sends/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('bulk_not_found');
  });
});

describe('a BFF killed mid-job', () => {
  it('SIGKILLed three times, resumes each time without sending any row twice; a row in flight becomes unknown, never resent', async () => {
    const slow = { ...FAST, BULK_SEND_RATE_PER_MINUTE: '900' };
    let bff = await startBff(api.url, { UPSTREAM_API_KEY: apiKey, ...slow });
    const reuse = { dir: bff.dir, key: apiKey };
    let owner = await bff.owner();
    const rows = emails('restart', 100);
    const id = await startJob(owner, rows);
    try {
      for (const before of [15, 40, 65]) {
        await waitFor(
          async () => (await job(owner, id)).counts.sent >= before,
          30_000,
          `${before} rows sent`,
        );
        await bff.app.stop('SIGKILL');
        bff = await startBff(api.url, { ...slow, UPSTREAM_API_KEY: apiKey }, reuse);
        owner = await bff.owner();
      }
      const done = await finished(owner, id, 60_000);
      expect(done.status).toBe('done');
      const { counts } = done;
      // Every row in exactly one outcome: sent, or unknown (at most one per kill).
      expect(counts.sent + counts.unknown).toBe(100);
      expect(counts.unknown).toBeLessThanOrEqual(3);
      const outbox = await outboxByRecipient();
      const delivered = rows.map((r) => outbox.get(r.customerEmail) ?? 0);
      expect(Math.max(...delivered), 'no row sent twice').toBe(1);
      // Sends counted at the API = rows sent + some of the unknown ones.
      const total = delivered.reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThanOrEqual(counts.sent);
      expect(total).toBeLessThanOrEqual(counts.sent + counts.unknown);
      const page = await owner.get(`/bff/bulk-sends/${id}/rows?limit=100`);
      for (const row of page.json.data.rows.filter((r: { outcome: string }) => r.outcome === 'sent'))
        expect(delivered[row.index], `row ${row.index} sent once`).toBe(1);
    } finally {
      await bff.stop();
    }
  }, 150_000);
});

describe('the upstream’s pace', () => {
  let upstream: FakeUpstream;
  const seen: { at: number; email: string; status: number }[] = [];
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    let n = 0;
    upstream.behaveOn('/api/v1/requests/send', (req, res, socket) => {
      const email = (JSON.parse(req.body.toString()) as { customerEmail: string }).customerEmail;
      n++;
      // Every fourth request is over the limit: wait one second.
      if (n % 4 === 0) {
        seen.push({ at: Date.now(), email, status: 429 });
        overTheLimit(req, res, socket);
        return;
      }
      seen.push({ at: Date.now(), email, status: 201 });
      const { status, body } = healthyAnswer(req);
      json(res, status, body);
    });
  });
  afterAll(() => upstream?.close());

  it('waits each 429’s Retry-After before the next request, then sends the same row once', async () => {
    const bff = await startBff(upstream.url, FAST);
    try {
      const owner = await bff.owner();
      const rows = emails('pace', 12);
      const id = await startJob(owner, rows);
      const done = await finished(owner, id);
      expect(done.counts).toMatchObject({ sent: 12, total: 12 });
      const limited = seen.filter((s) => s.status === 429);
      expect(limited.length).toBeGreaterThanOrEqual(3);
      for (const hit of limited) {
        const next = seen[seen.indexOf(hit) + 1];
        expect(next, 'a request after each 429').toBeDefined();
        expect(next!.at - hit.at, 'no request before Retry-After').toBeGreaterThanOrEqual(1_000);
        expect(next!.email, 'the same row again').toBe(hit.email);
      }
      const accepted = seen.filter((s) => s.status === 201).map((s) => s.email);
      expect(new Set(accepted).size).toBe(accepted.length);
      expect(accepted.length).toBe(12);
    } finally {
      await bff.stop();
    }
  }, 60_000);

  it('pauses on a refused key with the reason in words, and resumes when asked', async () => {
    const bff = await startBff(upstream.url, FAST);
    try {
      const owner = await bff.owner();
      upstream.behaveOn('/api/v1/requests/send', (_req, res) =>
        json(res, 403, {
          success: false,
          error: 'Sending allowance exceeded for this calendar month.',
          code: 'allowance_exceeded',
        }),
      );
      const id = await startJob(owner, emails('allowance', 3));
      const paused = await finished(owner, id);
      expect(paused.status).toBe('paused');
      expect(paused.reason).toContain('allowance exceeded');
      expect(paused.counts.pending).toBe(3);
      upstream.behaveOn('/api/v1/requests/send', (req, res) => {
        const { status, body } = healthyAnswer(req);
        json(res, status, body);
      });
      const resumed = await owner.post(`/bff/bulk-sends/${id}/resume`, {});
      expect(resumed.status).toBe(200);
      expect((await finished(owner, id)).counts.sent).toBe(3);
    } finally {
      await bff.stop();
    }
  }, 60_000);
});

describe('two BFF processes on one database', () => {
  it('never both send a row: every row of three jobs reaches the upstream exactly once', async () => {
    const upstream = await startFakeUpstream();
    upstream.behaveOn('/api/v1/requests/send', (req, res) => {
      // Slow enough that both processes hold runs at once.
      setTimeout(() => {
        const { status, body } = healthyAnswer(req);
        json(res, status, body);
      }, 20);
    });
    const first = await startBff(upstream.url, FAST);
    const second = await startBff(upstream.url, FAST, { dir: first.dir, key: first.key });
    try {
      const a = await first.owner();
      const b = await second.owner();
      const ids = [
        await startJob(a, emails('two-a', 40)),
        await startJob(b, emails('two-b', 40)),
        await startJob(a, emails('two-c', 40)),
      ];
      for (const id of ids) expect((await finished(a, id, 60_000)).counts.sent).toBe(40);
      const sent = upstream.calls
        .filter((c) => c.url === '/api/v1/requests/send')
        .map((c) => (JSON.parse(c.body.toString()) as { customerEmail: string }).customerEmail);
      expect(sent.length).toBe(120);
      expect(new Set(sent).size).toBe(120);
    } finally {
      await second.stop();
      await first.stop();
      await upstream.close();
    }
  }, 90_000);
});

describe('two lists and a single send on one limited key', () => {
  it('share the limit: both lists progress together, the single send gets through, staff control only their own', async () => {
    const upstream = await startFakeUpstream();
    // The key's limit, as the API counts it (GCRA): ten a second, a burst of three.
    let tat = 0;
    const accepted: string[] = [];
    upstream.behaveOn('/api/v1/requests/send', (req, res, socket) => {
      const now = Date.now();
      const next = Math.max(tat, now) + 100;
      if (next - now > 300) {
        overTheLimit(req, res, socket);
        return;
      }
      tat = next;
      accepted.push((JSON.parse(req.body.toString()) as { customerEmail: string }).customerEmail);
      const { status, body } = healthyAnswer(req);
      json(res, status, body);
    });
    const bff = await startBff(upstream.url, FAST);
    try {
      const owner = await bff.owner();
      const staff = await addUser(bff, owner, STAFF);

      const a = await startJob(owner, emails('fair-a', 25));
      const b = await startJob(staff, emails('fair-b', 25));
      // A staff member cannot pause the owner's list; they can pause and resume their own.
      const refused = await staff.post(`/bff/bulk-sends/${a}/pause`, {});
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe('role_forbidden');

      // A single send in between: it may meet a 429 (passed on with its Retry-After), never a wall.
      const key = crypto.randomUUID();
      let single = await staff.send({ channel: 'email', customerEmail: 'single@example.com' }, key);
      // Asked again until the limit lets it through (the same key: one send), at most ten seconds.
      for (let i = 0; i < 100 && single.status === 429; i++) {
        await new Promise((r) => setTimeout(r, 100)); // poll: a look again at the limit
        single = await staff.send({ channel: 'email', customerEmail: 'single@example.com' }, key);
      }
      expect(single.status).toBeLessThan(300);

      expect((await finished(owner, a, 60_000)).counts.sent).toBe(25);
      expect((await finished(staff, b, 60_000)).counts.sent).toBe(25);
      // Neither list waited for the other: each has a fair part of the first twenty sends.
      const first = accepted.filter((e) => e.startsWith('fair-')).slice(0, 20);
      expect(first.filter((e) => e.startsWith('fair-a')).length).toBeGreaterThanOrEqual(5);
      expect(first.filter((e) => e.startsWith('fair-b')).length).toBeGreaterThanOrEqual(5);
      expect(new Set(accepted).size).toBe(accepted.length);
    } finally {
      await bff.stop();
      await upstream.close();
    }
  }, 120_000);
});
