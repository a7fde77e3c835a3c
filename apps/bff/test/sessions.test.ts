import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { OWNER, startBff, type TestBff } from './support/bff.ts';
import { raw } from './support/client.ts';

// Session lifetime, brute-force throttling and the HTTPS cookie, each on a BFF configured for it.

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
});

afterAll(async () => {
  await upstream?.close();
});

const BURST_USER = { email: 'burst@example.com', password: 'burst-password-1' };
const VICTIM = { email: 'victim@example.com', password: 'victim-password-1' };

describe('session expiry, throttling and secure cookies', () => {
  let short: TestBff;
  let proxied: TestBff;

  beforeAll(async () => {
    [short, proxied] = await Promise.all([
      startBff(upstream.url, { SESSION_IDLE_MINUTES: '0.02', SESSION_ABSOLUTE_HOURS: '0.001' }),
      startBff(upstream.url, { TRUST_PROXY: 'loopback' }),
    ]);
    // A second account, so the owner's lock-out below does not decide the burst test.
    const owner = await proxied.owner();
    for (const user of [
      { ...BURST_USER, role: 'staff' },
      { ...VICTIM, role: 'owner' },
    ]) {
      const created = await owner.post('/bff/users', user);
      if (created.status !== 201) throw new Error(`could not add a user: ${created.text}`);
    }
  });

  afterAll(async () => {
    await Promise.all([short?.stop(), proxied?.stop()]);
  });

  it('uses a __Host- Secure cookie when the dashboard is reached over HTTPS', async () => {
    const login = await raw(
      proxied.url,
      'POST',
      '/auth/login',
      {
        'content-type': 'application/json',
        'x-csrf': '1',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'desk.example.com',
        origin: 'https://desk.example.com',
      },
      JSON.stringify(OWNER),
    );
    expect(login.status).toBe(200);
    const cookie = login.headers['set-cookie']![0]!;
    expect(cookie).toMatch(
      /^__Host-rd_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/,
    );
    const me = await raw(proxied.url, 'GET', '/auth/me', {
      cookie: cookie.split(';')[0]!,
      'x-forwarded-proto': 'https',
    });
    expect(me.status).toBe(200);
    // The same Origin without the proxy's word that the scheme is https is cross-origin.
    const plain = await raw(
      proxied.url,
      'POST',
      '/auth/login',
      { 'content-type': 'application/json', 'x-csrf': '1', origin: 'https://desk.example.com' },
      JSON.stringify(OWNER),
    );
    expect(plain.status).toBe(403);
  });

  it('ends a session after the idle timeout', async () => {
    const client = await short.owner();
    expect((await client.get('/auth/me')).status).toBe(200);
    // Real time: sessions expire on the system clock (a session's life is wall time, not the dev clock).
    await new Promise((r) => setTimeout(r, 1_500));
    const reply = await client.get('/auth/me');
    expect(reply.status).toBe(401);
    expect(reply.headers.get('x-auth-required')).toBe('session');
    expect(reply.json.error).toMatch(/expired/);
  });

  it('keeps an active session alive past the idle timeout, but not past the absolute limit', async () => {
    const client = await short.owner();
    const started = Date.now();
    const statuses: [number, number][] = [];
    while (Date.now() - started < 5_000) {
      statuses.push([Date.now() - started, (await client.get('/auth/me')).status]);
      // Real time: a user active every 400 ms of wall time, as sessions count it.
      await new Promise((r) => setTimeout(r, 400));
    }
    const alive = statuses.filter(([t]) => t < 3_300).map(([, s]) => s);
    const late = statuses.filter(([t]) => t > 3_800).map(([, s]) => s);
    expect(alive.length).toBeGreaterThan(5);
    expect(new Set(alive)).toEqual(new Set([200]));
    expect(new Set(late)).toEqual(new Set([401]));
  });

  it('throttles guesses per account, even from another IP and with the right password', async () => {
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const guesses = await Promise.all(
      Array.from({ length: 5 }, () =>
        proxied
          .client()
          .post('/auth/login', { email: OWNER.email, password: 'wrong-guess' }, from('198.51.100.1')),
      ),
    );
    expect(guesses.map((r) => r.status)).toEqual(Array(5).fill(401));
    const locked = await proxied.client().post('/auth/login', OWNER, from('198.51.100.1'));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(locked.json.error).toMatch(/Too many sign-in attempts/);
    const elsewhere = await proxied.client().post('/auth/login', OWNER, from('198.51.100.2'));
    expect(elsewhere.status).toBe(429);
  });

  it('never throttles a right password for its own concurrency; a burst of guesses is still limited', async () => {
    const staff = BURST_USER;
    const ip = { 'x-forwarded-for': '198.51.100.40' };
    const right = await Promise.all(
      Array.from({ length: 20 }, () => proxied.client().post('/auth/login', staff, ip)),
    );
    expect(right.map((r) => r.status)).toEqual(Array(20).fill(200));
    // Twenty wrong passwords at once: five are checked (the limit), the rest refused unchecked.
    const wrong = await Promise.all(
      Array.from({ length: 20 }, () =>
        proxied.client().post('/auth/login', { email: staff.email, password: 'not-it-at-all' }, ip),
      ),
    );
    const statuses = wrong.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    const refused = wrong.find((r) => r.status === 429)!;
    expect(refused.json).toMatchObject({ success: false, code: 'login_throttled' });
    expect(refused.json.error).toMatch(/Too many sign-in attempts/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await proxied.client().post('/auth/login', staff, ip)).status).toBe(429);
  });

  it('keeps a browser that signed in before out of a lock-out others cause; its own guesses lock only it', async () => {
    const victim = VICTIM;
    const office = { 'x-forwarded-for': '198.51.100.70' };
    const signIn = (password: string, headers: Record<string, string>) =>
      raw(
        proxied.url,
        'POST',
        '/auth/login',
        { 'content-type': 'application/json', 'x-csrf': '1', origin: proxied.url, ...headers },
        JSON.stringify({ email: victim.email, password }),
      );
    // The victim's browser signs in once: it gets its device cookie beside the session cookie.
    const first = await signIn(victim.password, office);
    expect(first.status).toBe(200);
    const device = first.headers['set-cookie']!.find((c) => c.startsWith('rd_device='))!;
    expect(device).toMatch(
      /^rd_device=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
    );
    const cookie = { cookie: device.split(';')[0]! };

    // Anyone who knows the email guesses, from elsewhere and from the victim's own office address,
    // and sprays other accounts from that address too.
    const guesses = await Promise.all(
      ['203.0.113.9', '198.51.100.70'].flatMap((from) =>
        Array.from({ length: 4 }, () => signIn('a-wrong-guess', { 'x-forwarded-for': from })),
      ),
    );
    expect(guesses.map((r) => r.status).sort()).toEqual([...Array(5).fill(401), ...Array(3).fill(429)]);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        raw(
          proxied.url,
          'POST',
          '/auth/login',
          { 'content-type': 'application/json', 'x-csrf': '1', origin: proxied.url, ...office },
          JSON.stringify({ email: `sprayed${i}@example.com`, password: 'guess' }),
        ),
      ),
    );
    // Guessing stays limited: an unknown browser is refused, even with the right password.
    const unknown = await signIn(victim.password, { 'x-forwarded-for': '203.0.113.9' });
    expect(unknown.status).toBe(429);
    // The victim's browser is not: same office, right password, signed in.
    const again = await signIn(victim.password, { ...office, ...cookie });
    expect(again.status).toBe(200);
    // A device cookie counts for its own account only; forged, it counts for nothing.
    const forged = { cookie: `rd_device=${'A'.repeat(22)}.${'B'.repeat(43)}` };
    expect((await signIn(victim.password, { ...office, ...forged })).status).toBe(429);

    // The browser's own wrong passwords use its own allowance, then it is unknown again.
    const mine = await Promise.all(
      Array.from({ length: 5 }, () => signIn('my-own-typo', { ...office, ...cookie })),
    );
    expect(mine.map((r) => r.status)).toEqual(Array(5).fill(401));
    expect((await signIn(victim.password, { ...office, ...cookie })).status).toBe(429);
  }, 60_000);

  it('throttles an IP spraying many accounts', async () => {
    const ip = { 'x-forwarded-for': '203.0.113.50' };
    // Thirty guesses at once: each is counted by one atomic upsert, so none slips through.
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        proxied.client().post('/auth/login', { email: `spray${i}@example.com`, password: 'guess' }, ip),
      ),
    );
    expect(guesses.map((r) => r.status)).toEqual(Array(30).fill(401));
    const blocked = await proxied
      .client()
      .post('/auth/login', { email: 'spray-last@example.com', password: 'guess' }, ip);
    expect(blocked.status).toBe(429);
    const otherIp = await proxied.client().post(
      '/auth/login',
      { email: 'spray-last@example.com', password: 'guess' },
      {
        'x-forwarded-for': '203.0.113.51',
      },
    );
    expect(otherIp.status).toBe(401);
  });
});

describe('shutdown', () => {
  it('stops on SIGTERM even when nobody reads its output any more', async () => {
    const bff = await startBff(upstream.url);
    try {
      // Whoever read its log is gone (a supervisor or a terminal pipe closed): the shutdown's own
      // lines are the first writes to fail.
      bff.app.child.stdout!.destroy();
      const exited = once(bff.app.child, 'exit');
      bff.app.child.kill('SIGTERM');
      const outcome = await Promise.race([
        exited.then(([code, signal]) => `exit ${code ?? signal}`),
        new Promise((resolve) => setTimeout(() => resolve('still running 10 s after SIGTERM'), 10_000)),
      ]);
      expect(outcome, bff.app.logs.slice(-5).join('\n')).toBe('exit 0');
    } finally {
      bff.app.child.kill('SIGKILL');
      await bff.stop();
    }
  }, 30_000);
});
