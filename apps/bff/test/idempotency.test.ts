import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { sendHistorySchema } from '@review-desk/shared';
import { afterEach, describe, expect, it } from 'vitest';
import {
  behaviours,
  defaultBehaviour,
  type FakeUpstream,
  json,
} from '../../../test/support/fault-upstream.ts';
import { addUser, startBff, type TestBff, useBffOnFakeUpstream } from './support/bff.ts';
import { type DashboardClient, expectFailure } from './support/client.ts';
import { SMS, STAFF } from './support/fixtures.ts';

// At most one send per user intent: the journal claims each (user, Idempotency-Key) before
// forwarding, replays finished sends, and never lets an unknown outcome be retried blindly.

let upstream: FakeUpstream;
let bff: TestBff;
let owner: DashboardClient;
const SEND = '/api/v1/requests/send';

useBffOnFakeUpstream((stack) => ({ upstream, bff, owner } = stack), { UPSTREAM_TIMEOUT_MS: '1000' });

afterEach(() => upstream.reset());

const waitFor = async (check: () => boolean, ms = 5_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20)); // poll: a look again at the condition
  }
};

describe('idempotent sends', () => {
  it('double submit: one upstream send; the late twin is told it is in flight; a retry replays the answer', async () => {
    upstream.behave(behaviours.delay(400));
    const key = crypto.randomUUID();
    // The twin comes once the first is upstream, still waiting for its answer.
    const [first, twin] = await Promise.all([
      owner.send(SMS, key),
      waitFor(() => upstream.count('/api/v1/requests/send') === 1).then(() => owner.send(SMS, key)),
    ]);
    expect(first.status).toBe(200);
    expect(twin.status).toBe(409);
    expect(twin.json.error).toMatch(/still being sent/);
    expect(upstream.count(SEND)).toBe(1);

    const replay = await owner.send(SMS, key);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    expect(upstream.count(SEND)).toBe(1);
  });

  it('relays a send’s answer byte for byte, text beyond ASCII included, and replays the same bytes', async () => {
    const answer =
      '{"success":true,"data":{"requestId":"req_ü1","status":"sent","channel":"sms","reviewLink":"https://reviews.example/r/req_ü1","warning":"Envoyé ✓ — 送信済み"}}';
    upstream.behave((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(answer);
    });
    const key = crypto.randomUUID();
    const first = await owner.send(SMS, key);
    expect(first.status).toBe(200);
    expect(first.text).toBe(answer);
    expect(Number(first.headers.get('content-length'))).toBe(Buffer.byteLength(answer));
    const replay = await owner.send(SMS, key);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.text).toBe(answer);
  });

  it('treats the same intent written differently as the same request (normalised fingerprint)', async () => {
    const key = crypto.randomUUID();
    expect((await owner.send(SMS, key)).status).toBe(200);
    const respelled = await owner.send(
      { channel: 'sms', customerPhone: '+1 (415) 555-2671', customerName: ' Ann Lee ' },
      key,
    );
    expect(respelled.status).toBe(200);
    expect(respelled.headers.get('idempotency-replayed')).toBe('true');
    expect(upstream.count(SEND)).toBe(1);
  });

  it('answers 422 for the same key with a different body', async () => {
    const key = crypto.randomUUID();
    expect((await owner.send(SMS, key)).status).toBe(200);
    const other = await owner.send({ ...SMS, customerName: 'Bob' }, key);
    expect(other.status).toBe(422);
    expect(other.json.error).toMatch(/already used for a different request/);
    expect(upstream.count(SEND)).toBe(1);
  });

  it('answers 400 without a key or with a key that is not a UUID', async () => {
    const none = await owner.send(SMS, null);
    expect(none.status).toBe(400);
    expect(none.json.error).toMatch(/Idempotency-Key header is required/);
    const bad = await owner.send(SMS, 'not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('Idempotency-Key must be a UUID');
    expect(upstream.count(SEND)).toBe(0);
  });

  it('a timeout makes the outcome unknown; any retry with that key is refused with 409', async () => {
    upstream.behave(behaviours.hang());
    const key = crypto.randomUUID();
    const started = Date.now();
    const first = await owner.send(SMS, key);
    expect(first.status).toBe(504);
    expect(first.json.code).toBe('upstream_timeout');
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(first.json.error).toMatch(/Outcome unknown — a request may have been sent/);
    upstream.behave(null);
    const retry = await owner.send(SMS, key);
    expectFailure(
      retry,
      409,
      'outcome_unknown',
      'Outcome unknown — a request may have been sent; check recent requests before sending again.',
    );
    expect(upstream.count(SEND)).toBe(1);
    const history = await owner.get('/bff/sends?limit=1');
    expect(history.json.data.sends[0]).toMatchObject({ outcome: 'unknown', httpStatus: 504 });
  });

  it('a connection lost after the request left is unknown too', async () => {
    upstream.behave(behaviours.drop());
    const key = crypto.randomUUID();
    const first = await owner.send(SMS, key);
    expect(first.status).toBe(502);
    expect(first.json.error).toMatch(/Outcome unknown/);
    upstream.behave(null);
    expect((await owner.send(SMS, key)).status).toBe(409);
    expect(upstream.count(SEND)).toBe(1);
  });

  it('an unreadable success is unknown (the request was probably created)', async () => {
    upstream.behave(behaviours.garbage(200, 'text/html'));
    const key = crypto.randomUUID();
    const first = await owner.send(SMS, key);
    expect(first.status).toBe(502);
    expect(first.json.error).toMatch(/Outcome unknown/);
    expect((await owner.send(SMS, key)).status).toBe(409);
  });

  it('a definite refusal spends nothing: the same key goes upstream again', async () => {
    upstream.behave(
      behaviours.status(429, { success: false, error: 'Request limit reached.' }, { 'retry-after': '3' }),
    );
    const key = crypto.randomUUID();
    const refused = await owner.send(SMS, key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3');
    upstream.behave(null);
    const retried = await owner.send(SMS, key);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotency-replayed')).toBeNull();
    expect(upstream.count(SEND)).toBe(2);
    const history = await owner.get('/bff/sends?limit=2');
    expect(history.json.data.sends.map((s: { outcome: string }) => s.outcome)).toEqual(['sent', 'failed']);
  });

  it('records a delivery warning as its own outcome and replays it', async () => {
    upstream.behave((_req, res) =>
      json(res, 200, {
        success: true,
        data: {
          requestId: 'req_w',
          status: 'sent',
          channel: 'both',
          reviewLink: 'https://reviews.example/r/req_w',
          warning: 'SMS delivery failed: carrier refused the number.',
        },
      }),
    );
    const key = crypto.randomUUID();
    const body = { ...SMS, channel: 'both', customerEmail: 'ann@example.com' };
    const first = await owner.send(body, key);
    expect(first.status).toBe(200);
    const history = await owner.get('/bff/sends?limit=1');
    expect(history.json.data.sends[0]).toMatchObject({
      outcome: 'warning',
      requestId: 'req_w',
      warning: 'SMS delivery failed: carrier refused the number.',
      reviewLink: 'https://reviews.example/r/req_w',
    });
    upstream.behave(null);
    const replay = await owner.send(body, key);
    expect(replay.text).toBe(first.text);
    expect(upstream.count(SEND)).toBe(1);
  });

  it('keeps keys per user: another user’s identical key is another intent', async () => {
    const staff = await addUser(bff, owner, { ...STAFF, email: 'staff2@example.com' });
    const key = crypto.randomUUID();
    expect((await owner.send(SMS, key)).status).toBe(200);
    const theirs = await staff.send(SMS, key);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotency-replayed')).toBeNull();
    expect(upstream.count(SEND)).toBe(2);
  });
});

describe('send history', () => {
  it('lists sends newest first with who sent, masked contact and outcome, filtered by a normalised contact', async () => {
    await owner.send({ channel: 'email', customerEmail: 'Zed@Example.com', customerName: 'Zed' });
    await owner.send({ channel: 'sms', customerPhone: '+44 20 7946 0958', customerName: 'Uma' });
    await owner.send({ channel: 'link' });

    const all = await owner.get('/bff/sends?limit=3');
    expect(all.status).toBe(200);
    const history = sendHistorySchema.parse(all.json.data);
    expect(history.sends.map((s) => s.channel)).toEqual(['link', 'sms', 'email']);
    expect(history.sends[1]).toMatchObject({
      sentBy: 'owner@example.com',
      customerName: 'Uma',
      contact: '+44 ••• ••• 0958',
      outcome: 'sent',
      status: 'sent',
      requestId: expect.stringMatching(/^req_/),
    });
    expect(history.sends[2]!.contact).toBe('z•••@example.com');
    // Ids are random hex and may hold any four digits: the contact's are looked for elsewhere.
    const shown = JSON.stringify(history.sends.map(({ id: _id, ...entry }) => entry));
    expect(shown).not.toContain('7946');
    expect(all.text).not.toContain('Zed@');

    const byPhone = await owner.get(`/bff/sends?contact=${encodeURIComponent('+442079460958')}`);
    expect(byPhone.json.data.total).toBe(1);
    expect(byPhone.json.data.sends[0].customerName).toBe('Uma');
    // As the searcher writes it at home: a national number, read in their country.
    const local = await owner.get(`/bff/sends?contact=${encodeURIComponent('020 7946 0958')}&country=GB`);
    expect(local.json.data.sends.map((s: { customerName: string }) => s.customerName)).toEqual(['Uma']);
    const byEmail = await owner.get(`/bff/sends?contact=${encodeURIComponent(' ZED@example.COM ')}`);
    expect(byEmail.json.data.sends.map((s: { customerName: string }) => s.customerName)).toEqual(['Zed']);
    const none = await owner.get(`/bff/sends?contact=${encodeURIComponent('nobody@example.com')}`);
    expect(none.json.data).toMatchObject({ total: 0, sends: [] });

    const page2 = await owner.get('/bff/sends?limit=1&page=2');
    expect(page2.json.data.sends[0].channel).toBe('sms');
    expect(page2.json.data).toMatchObject({ page: 2, limit: 1 });

    const bad = await owner.get('/bff/sends?contact=12345');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/^Contact must be an email address or a phone number/);
    expect(bad.json.fields).toEqual({ contact: bad.json.error });
    expect((await owner.get('/bff/sends?limit=101')).status).toBe(400);
  });

  it('stores contacts only masked or as keyed hashes', () => {
    const db = new DatabaseSync(bff.databasePath, { readOnly: true });
    try {
      const rows = db.prepare('SELECT * FROM sends').all();
      const dump = JSON.stringify(rows);
      for (const clear of ['4155552671', '2079460958', 'zed@example.com', 'ann@example.com']) {
        expect(dump.toLowerCase()).not.toContain(clear);
      }
      expect(rows.length).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    const files = ['', '-wal'].map((suffix) => {
      try {
        return readFileSync(`${bff.databasePath}${suffix}`).toString('latin1');
      } catch {
        return '';
      }
    });
    for (const file of files) expect(file).not.toContain('4155552671');
  });
});

describe('a restart with a send in flight', () => {
  it('marks the orphaned entry unknown, and a retry with its key is refused', async () => {
    const slow = await startBff(upstream.url, { UPSTREAM_TIMEOUT_MS: '30000' });
    try {
      const client = await slow.owner();
      upstream.behave(behaviours.hang());
      const key = crypto.randomUUID();
      const pending = client.send(SMS, key).catch(() => null);
      await waitFor(() => upstream.count(SEND) === 1);
      await slow.app.stop('SIGKILL');
      await pending;

      upstream.behave(defaultBehaviour);
      const restarted = await startBff(upstream.url, slow.env, { dir: slow.dir, key: slow.key });
      try {
        expect(restarted.app.logs.join('\n')).toMatch(/in-flight sends of a stopped BFF marked unknown/);
        const again = await restarted.owner();
        const history = await again.get('/bff/sends?limit=1');
        expect(history.json.data.sends[0]).toMatchObject({
          outcome: 'unknown',
          finishedAt: expect.any(String),
        });
        const retry = await again.send(SMS, key);
        expect(retry.status).toBe(409);
        expect(retry.json.error).toMatch(/^Outcome unknown/);
        expect(upstream.count(SEND)).toBe(1);
      } finally {
        await restarted.stop();
      }
    } finally {
      await slow.stop();
    }
  });
});
