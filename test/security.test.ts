import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from './support/fault-upstream.ts';
import { recordFigure } from './support/figures.ts';
import { request, type Session } from './support/http.ts';
import { type AddedUser, addUser, OWNER, type SystemBff, startSystemBff } from './support/stack.ts';

// Security checks the BFF's own suite leaves open (docs/reliability.md maps every check to its
// test): a planted session id, logout on every route, the complete role matrix with anonymous
// callers and user management, CORS on every route for a foreign origin, and CSRF on sign-in and
// user management. Each test fails when its protection is removed.

let upstream: FakeUpstream;
let bff: SystemBff;
let owner: Session;
let staff: AddedUser;
let manager: AddedUser;
const SMS = { channel: 'sms', customerName: 'Ann Lee', customerPhone: '+14155552671' };

beforeAll(async () => {
  upstream = await startFakeUpstream();
  bff = await startSystemBff(upstream.url);
  owner = await bff.owner();
  staff = await addUser(owner, {
    email: 'sec-staff@example.com',
    password: 'sec-staff-password',
    role: 'staff',
  });
  manager = await addUser(owner, {
    email: 'sec-manager@example.com',
    password: 'sec-manager-password',
    role: 'manager',
  });
});

afterAll(async () => {
  await bff?.cleanup();
  await upstream?.close();
});

afterEach(() => upstream.reset());

async function signedIn(user: { email: string; password: string }): Promise<Session> {
  const session = bff.session();
  const reply = await session.login(user.email, user.password);
  expect(reply.status).toBe(200);
  return session;
}

const cookieValue = (session: Session) => session.cookie!.split('=')[1]!;

describe('session fixation', () => {
  it('a session id planted before sign-in is never adopted: sign-in issues a new one, the planted one stays invalid', async () => {
    const planted = `rd_session=${'P'.repeat(43)}`;
    const victim = bff.session();
    victim.cookie = planted;
    expect((await victim.login(OWNER.email, OWNER.password)).status).toBe(200);
    expect(victim.cookie).not.toBe(planted);
    const attacker = bff.session();
    attacker.cookie = planted;
    expect((await attacker.get('/auth/me')).status).toBe(401);
    expect((await victim.get('/auth/me')).json.data.user.email).toBe(OWNER.email);
  });

  it('an attacker’s own valid session planted in a victim’s browser ends when the victim signs in', async () => {
    const attacker = await signedIn(staff);
    const victim = bff.session();
    victim.cookie = attacker.cookie;
    expect((await victim.login(OWNER.email, OWNER.password)).status).toBe(200);
    expect(cookieValue(victim)).not.toBe(cookieValue(attacker));
    // The attacker does not ride on the victim's sign-in: their session is gone, the victim's is theirs.
    const me = await attacker.get('/auth/me');
    expect(me.status).toBe(401);
    expect((await victim.get('/auth/me')).json.data.user.role).toBe('owner');
  });
});

describe('logout', () => {
  it('ends the session on every route, a send included, and nothing is forwarded with the old id', async () => {
    const session = await signedIn(manager);
    const token = session.cookie;
    expect((await session.post('/auth/logout', {})).status).toBe(200);
    const replayed = bff.session();
    replayed.cookie = token;
    for (const [method, path] of [
      ['GET', '/auth/me'],
      ['GET', '/api/v1/reviews'],
      ['GET', '/api/v1/analytics'],
      ['GET', '/bff/sends'],
    ] as const) {
      const reply = await replayed.request(method, path);
      expect({ path, status: reply.status }).toEqual({ path, status: 401 });
    }
    expect((await replayed.send(SMS)).status).toBe(401);
    expect(upstream.calls).toHaveLength(0);
  });

  it('a cross-site logout is refused and the session lives on', async () => {
    const session = await signedIn(manager);
    const attempts: Record<string, string>[] = [
      { 'x-csrf': '1', origin: 'https://evil.example' },
      { origin: session.base }, // no X-CSRF
      { 'x-csrf': '1', 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of attempts) {
      const reply = await request(bff.url, '/auth/logout', {
        method: 'POST',
        headers: { cookie: session.cookie!, ...headers },
      });
      expect(reply.status).toBe(403);
    }
    expect((await session.get('/auth/me')).status).toBe(200);
  });
});

describe('roles', () => {
  const ROUTES: [string, string, unknown?][] = [
    ['GET', '/auth/me'],
    ['GET', '/api/v1/reviews'],
    ['GET', '/api/v1/analytics'],
    ['POST', '/api/v1/requests/send', SMS],
    ['GET', '/bff/sends'],
    ['GET', '/bff/users'],
    ['POST', '/bff/users', { email: 'nobody@example.com', role: 'owner', password: 'a-long-password-1' }],
    ['PATCH', '/bff/users/STAFF', { role: 'owner' }],
    ['DELETE', '/bff/users/MANAGER'],
  ];

  it('anonymous callers get 401 (X-Auth-Required: session) on every protected route, and nothing is forwarded', async () => {
    for (const [method, path, body] of ROUTES) {
      const reply = await bff
        .session()
        .request(method, path.replace('STAFF', staff.id).replace('MANAGER', manager.id), {
          ...(body ? { json: body } : {}),
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
      expect({ method, path, status: reply.status }).toEqual({ method, path, status: 401 });
      expect(reply.headers['x-auth-required']).toBe('session');
    }
    expect(upstream.calls).toHaveLength(0);
    recordFigure({
      area: 'security',
      what: 'protected routes checked',
      value: ROUTES.length,
      summary: 'counted',
    });
  });

  it('staff and managers cannot manage users — not others, not themselves: 403 and nothing changes', async () => {
    const users = async () =>
      ((await owner.get('/bff/users')).json.data.users as { id: string; email: string; role: string }[]).map(
        ({ id, email, role }) => ({ id, email, role }),
      );
    const before = await users();
    for (const [user, selfId] of [
      [staff, staff.id],
      [manager, manager.id],
    ] as const) {
      const session = await signedIn(user);
      const attempts = [
        session.request('PATCH', `/bff/users/${selfId}`, { json: { role: 'owner' } }),
        session.request('PATCH', `/bff/users/${selfId === staff.id ? manager.id : staff.id}`, {
          json: { password: 'taken-over-password' },
        }),
        session.request('DELETE', `/bff/users/${selfId === staff.id ? manager.id : staff.id}`),
        session.post('/bff/users', {
          email: 'eve@example.com',
          role: 'owner',
          password: 'eve-long-password',
        }),
        session.get('/bff/users'),
      ];
      for (const reply of await Promise.all(attempts)) expect(reply.status).toBe(403);
      expect((await session.get('/auth/me')).json.data.user.role).toBe(user === staff ? 'staff' : 'manager');
    }
    expect(await users()).toEqual(before);
    // Passwords unchanged: both still sign in with their own.
    await signedIn(staff);
    await signedIn(manager);
  });
});

describe('CORS for a foreign origin', () => {
  it('no route gives a foreign origin CORS headers, even with a valid session; its preflights and writes are refused', async () => {
    const evil = 'https://evil.example';
    for (const path of [
      '/auth/me',
      '/api/v1/reviews',
      '/api/v1/analytics',
      '/bff/sends',
      '/bff/users',
      '/healthz',
    ]) {
      const read = await request(bff.url, path, { headers: { origin: evil, cookie: owner.cookie! } });
      expect({ path, acao: read.headers['access-control-allow-origin'] }).toEqual({ path, acao: undefined });
      expect(read.headers['access-control-allow-credentials']).toBeUndefined();
      const preflight = await request(bff.url, path, {
        method: 'OPTIONS',
        headers: {
          origin: evil,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-csrf',
        },
      });
      expect({ path, preflight: preflight.status }).toEqual({ path, preflight: 403 });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    }
    const write = await request(bff.url, '/bff/users', {
      method: 'POST',
      headers: { origin: evil, cookie: owner.cookie!, 'x-csrf': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cors@example.com', role: 'owner', password: 'a-long-password-2' }),
    });
    expect(write.status).toBe(403);
    const users = (await owner.get('/bff/users')).json.data.users as { email: string }[];
    expect(users.map((u) => u.email)).not.toContain('cors@example.com');
  });
});

describe('CSRF', () => {
  const variants: [string, Record<string, string>][] = [
    ['no X-CSRF header', { origin: 'SELF', 'content-type': 'application/json' }],
    [
      'a foreign Origin',
      { 'x-csrf': '1', origin: 'https://evil.example', 'content-type': 'application/json' },
    ],
    ['Origin: null', { 'x-csrf': '1', origin: 'null', 'content-type': 'application/json' }],
    [
      'cross-site fetch metadata',
      { 'x-csrf': '1', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
    ],
    ['neither Origin nor fetch metadata', { 'x-csrf': '1', 'content-type': 'application/json' }],
    ['a form body', { 'x-csrf': '1', origin: 'SELF', 'content-type': 'application/x-www-form-urlencoded' }],
    ['a text body', { 'x-csrf': '1', origin: 'SELF', 'content-type': 'text/plain' }],
  ];

  it('user management: every cross-site variant is refused and changes nothing', async () => {
    const before = (await owner.get('/bff/users')).json.data.users;
    for (const [label, headers] of variants) {
      const h: Record<string, string> = { ...headers, cookie: owner.cookie! };
      if (h.origin === 'SELF') h.origin = bff.url;
      const calls = [
        request(bff.url, '/bff/users', {
          method: 'POST',
          headers: h,
          body: JSON.stringify({ email: 'csrf@example.com', role: 'owner', password: 'a-long-password-3' }),
        }),
        request(bff.url, `/bff/users/${staff.id}`, {
          method: 'PATCH',
          headers: h,
          body: JSON.stringify({ role: 'owner' }),
        }),
        request(bff.url, `/bff/users/${manager.id}`, { method: 'DELETE', headers: h }),
      ];
      for (const reply of await Promise.all(calls))
        expect({ label, status: reply.status }).toEqual({ label, status: 403 });
    }
    expect((await owner.get('/bff/users')).json.data.users).toEqual(before);
    recordFigure({
      area: 'security',
      what: 'CSRF variants refused',
      value: variants.length,
      summary: 'counted',
    });
  });

  it('sign-in: a cross-site sign-in (login CSRF) is refused and sets no cookie', async () => {
    for (const [label, headers] of variants) {
      const h = { ...headers };
      if (h.origin === 'SELF') h.origin = bff.url;
      const reply = await request(bff.url, '/auth/login', {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ email: staff.email, password: staff.password }),
      });
      expect({ label, status: reply.status }).toEqual({ label, status: 403 });
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
  });
});
