import http from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from './support/fault-upstream.ts';
import { recordFigure } from './support/figures.ts';
import { type Reply, request, Session } from './support/http.ts';
import { submitReviewForm } from './support/review-page.ts';
import { scaled } from './support/soak.ts';
import { addUser, type SystemApi, type SystemBff, startSystemApi, startSystemBff } from './support/stack.ts';

// Nothing acknowledged is lost. The API is SIGKILLed while sends and customer reviews (the
// /r/<token> page's form) are being written; the BFF while sends and sign-ins are. Each process
// is started again exactly as before — no manual step — and every write that got a 2xx is there,
// and SQLite's integrity check passes.

const CYCLES = scaled(2, 10, 'DURABILITY_CYCLES');
/** Kill after this many acknowledged writes (or this long), so each kill lands mid-stream. */
const KILL_AFTER_WRITES = 60;
const KILL_AFTER_MS = 4_000;

function integrity(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
  } finally {
    db.close();
  }
}

/** Runs `writers` in loops; a loop ends when its writer says so or at its first failed call (the process died). */
async function stream(writers: (() => Promise<boolean>)[]): Promise<void> {
  await Promise.all(
    writers.map(async (write) => {
      for (;;) {
        try {
          if (!(await write())) return;
        } catch {
          return;
        }
      }
    }),
  );
}

describe('the API killed mid-write', () => {
  let api: SystemApi;
  let key: string;
  const totals = { sends: 0, reviews: 0, kills: 0 };

  beforeAll(async () => {
    api = await startSystemApi({
      RATE_LIMIT_PER_MINUTE: '0',
      MONTHLY_SEND_ALLOWANCE: '0',
      FREQUENCY_CAP_DAYS: '0',
    });
    key = await api.createKey();
  });

  afterAll(async () => {
    await api?.cleanup();
    recordFigure({
      area: 'durability',
      what: 'API SIGKILLs mid-stream',
      value: totals.kills,
      summary: 'counted',
    });
    recordFigure({
      area: 'durability',
      what: 'API acknowledged sends, all found',
      value: totals.sends,
      summary: 'counted',
    });
    recordFigure({
      area: 'durability',
      what: 'API acknowledged reviews, all found',
      value: totals.reviews,
      summary: 'counted',
    });
  });

  const sendHeaders = () => ({ 'x-api-key': key, 'content-type': 'application/json', origin: api.url });

  async function newLink(agent: http.Agent): Promise<string> {
    const reply = await request(api.url, '/api/v1/requests/send', {
      method: 'POST',
      headers: sendHeaders(),
      body: JSON.stringify({ channel: 'link', customerName: 'Durable customer' }),
      agent,
    });
    if (reply.status !== 200) throw new Error(`link: ${reply.status}`);
    return new URL(reply.json.data.reviewLink).pathname.split('/')[2]!;
  }

  it(`every acknowledged send and review survives ${CYCLES} SIGKILLs; the database is intact; restarts need no help`, async () => {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const agent = new http.Agent({ keepAlive: true });
      const links = await Promise.all(Array.from({ length: 40 }, () => newLink(agent)));
      const acknowledged = { sends: [] as string[], reviews: [] as { token: string; comment: string }[] };
      let seq = 0;
      const sendWriter = async () => {
        const n = seq++;
        const reply = await request(api.url, '/api/v1/requests/send', {
          method: 'POST',
          headers: sendHeaders(),
          body: JSON.stringify({
            channel: n % 2 === 0 ? 'sms' : 'email',
            customerName: `Durable ${cycle}-${n}`,
            customerPhone: `+1415555${String(1000 + ((cycle * 5000 + n) % 8999)).padStart(4, '0')}`,
            customerEmail: `durable-${cycle}-${n}@example.com`,
          }),
          agent,
        });
        if (reply.status === 200) acknowledged.sends.push(reply.json.data.requestId);
        return true;
      };
      const reviewWriter = async () => {
        const token = links.pop();
        if (!token) return false;
        const comment = `Acknowledged review ${cycle}-${token.slice(0, 8)}`;
        const reply = await submitReviewForm(api.url, token, { rating: '4', comment }, agent);
        // Post/redirect/get: the 303 is the page's acknowledgement that the review is stored.
        if (reply.status === 303) acknowledged.reviews.push({ token, comment });
        return true;
      };

      const writing = stream([sendWriter, sendWriter, sendWriter, reviewWriter, reviewWriter]);
      // Kill while the writers are still going.
      const until = Date.now() + KILL_AFTER_MS;
      while (
        acknowledged.sends.length + acknowledged.reviews.length < KILL_AFTER_WRITES &&
        Date.now() < until
      ) {
        await new Promise((r) => setTimeout(r, 10)); // poll: a look again at the writes
      }
      await api.stop('SIGKILL');
      totals.kills++;
      await writing;
      agent.destroy();
      expect(acknowledged.sends.length + acknowledged.reviews.length).toBeGreaterThan(0);

      // Nothing acknowledged is missing, and the file is sound, before anything touches it again.
      expect(integrity(api.databasePath)).toBe('ok');
      await api.restart();
      const db = new DatabaseSync(api.databasePath, { readOnly: true });
      try {
        const sendRow = db.prepare('SELECT status FROM requests WHERE public_id = ?');
        for (const id of acknowledged.sends) {
          expect({ id, row: sendRow.get(id) }).toEqual({ id, row: { status: 'sent' } });
        }
        const reviewRow = db.prepare(
          'SELECT r.rating, r.text FROM reviews r JOIN requests q ON r.request_id = q.id WHERE q.token = ?',
        );
        for (const { token, comment } of acknowledged.reviews) {
          expect({ token, row: reviewRow.get(token) }).toEqual({ token, row: { rating: 4, text: comment } });
        }
      } finally {
        db.close();
      }
      // The counters kept in the same transactions agree with a recount.
      expect(await api.cli(['check-rollups'])).toMatch(/match a recount/);
      // And the service works: a review link from before the kill still shows its review.
      if (acknowledged.reviews[0]) {
        const page = await request(api.url, `/r/${acknowledged.reviews[0].token}`);
        expect(page.status).toBe(200);
        expect(page.text).toMatch(/Thank you/);
      }
      const list = await request(api.url, '/api/v1/reviews?limit=1', { headers: { 'x-api-key': key } });
      expect(list.status).toBe(200);
      totals.sends += acknowledged.sends.length;
      totals.reviews += acknowledged.reviews.length;
    }
    expect(integrity(api.databasePath)).toBe('ok');
  });
});

describe('the BFF killed mid-write', () => {
  let upstream: FakeUpstream;
  let bff: SystemBff;
  const USERS = ['a', 'b', 'c'].map((x) => ({
    email: `durable-${x}@example.com`,
    password: `durable-password-${x}`,
  }));
  const totals = { sends: 0, logins: 0, kills: 0, unknown: 0 };

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // X-Forwarded-For gives each stream of sign-ins its own address, so throttling stays out of it.
    bff = await startSystemBff(upstream.url, { TRUST_PROXY: 'loopback', UPSTREAM_TIMEOUT_MS: '2000' });
    const owner = await bff.owner();
    for (const user of USERS) await addUser(owner, { ...user, role: 'staff' });
  });

  afterAll(async () => {
    await bff?.cleanup();
    await upstream?.close();
    recordFigure({
      area: 'durability',
      what: 'BFF SIGKILLs mid-stream',
      value: totals.kills,
      summary: 'counted',
    });
    recordFigure({
      area: 'durability',
      what: 'BFF acknowledged sends, all in the journal',
      value: totals.sends,
      summary: 'counted',
    });
    recordFigure({
      area: 'durability',
      what: 'BFF acknowledged sign-ins, sessions alive',
      value: totals.logins,
      summary: 'counted',
    });
    recordFigure({ area: 'durability', what: 'BFF unanswered sends left unknown', value: totals.unknown });
  });

  it(`every acknowledged send and sign-in survives ${CYCLES} SIGKILLs; unanswered sends are unknown, never sent twice`, async () => {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const sender = await bff.owner();
      const acknowledged = {
        sends: [] as { name: string; key: string; body: unknown; reply: Reply }[],
        logins: [] as string[],
      };
      const unanswered: { name: string; key: string; body: unknown }[] = [];
      let seq = 0;
      const sendWriter = async () => {
        const n = seq++;
        const name = `Journal ${cycle}-${n}`;
        const key = crypto.randomUUID();
        const body = { channel: 'link', customerName: name };
        try {
          const reply = await sender.send(body, key);
          if (reply.status === 200) acknowledged.sends.push({ name, key, body, reply });
          return true;
        } catch (error) {
          unanswered.push({ name, key, body });
          throw error;
        }
      };
      const loginWriter = (index: number) => async () => {
        const session = new Session(bff.url);
        const user = USERS[index]!;
        const reply = await session.request('POST', '/auth/login', {
          json: user,
          headers: { 'x-forwarded-for': `10.7.${cycle}.${seq++ % 250}` },
        });
        if (reply.status === 200 && session.cookie) acknowledged.logins.push(session.cookie);
        return true;
      };
      const writing = stream([
        sendWriter,
        sendWriter,
        sendWriter,
        loginWriter(0),
        loginWriter(1),
        loginWriter(2),
      ]);
      const until = Date.now() + KILL_AFTER_MS;
      while (acknowledged.sends.length < KILL_AFTER_WRITES && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 10)); // poll: a look again at the writes
      }
      await bff.stop('SIGKILL');
      totals.kills++;
      await writing;
      expect(acknowledged.sends.length).toBeGreaterThan(0);
      expect(integrity(bff.databasePath)).toBe('ok');

      const upstreamBefore = upstream.count('/api/v1/requests/send');
      await bff.restart();
      const owner = await bff.owner();
      const history: { customerName: string; outcome: string }[] = [];
      for (let page = 1; ; page++) {
        const sends = (await owner.get(`/bff/sends?limit=100&page=${page}`)).json.data.sends;
        history.push(...sends);
        if (sends.length < 100) break;
      }
      const outcome = (name: string) => history.filter((s) => s.customerName === name).map((s) => s.outcome);
      for (const send of acknowledged.sends) {
        expect({ name: send.name, outcomes: outcome(send.name) }).toEqual({
          name: send.name,
          outcomes: ['sent'],
        });
        // The journal still knows the intent, and the sender's session (acknowledged before the
        // kill) still works: the same key replays the stored answer.
        const sameBrowser = new Session(bff.url); // the restarted BFF listens on a new port
        sameBrowser.cookie = sender.cookie;
        const replay = await sameBrowser.send(send.body, send.key);
        expect(replay.status).toBe(200);
        expect(replay.headers['idempotency-replayed']).toBe('true');
        expect(replay.text).toBe(send.reply.text);
      }
      // Sends that got no answer: unknown (or sent, if the BFF finished before dying) — never in flight.
      for (const send of unanswered) {
        for (const o of outcome(send.name)) expect(['sent', 'unknown']).toContain(o);
        if (outcome(send.name).includes('unknown')) totals.unknown++;
      }
      for (const cookie of acknowledged.logins) {
        const session = new Session(bff.url);
        session.cookie = cookie;
        expect((await session.get('/auth/me')).status).toBe(200);
      }
      // Replays and lookups sent nothing new.
      expect(upstream.count('/api/v1/requests/send')).toBe(upstreamBefore);
      totals.sends += acknowledged.sends.length;
      totals.logins += acknowledged.logins.length;
    }
    expect(integrity(bff.databasePath)).toBe('ok');
  });
});
