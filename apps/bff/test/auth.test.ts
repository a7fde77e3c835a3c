import { meSchema, ROLE_PERMISSIONS, userSchema } from '@review-desk/shared';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../../test/support/fault-upstream.ts';
import { runCli } from '../../../test/support/processes.ts';
import { OWNER, type TestBff, useBffOnFakeUpstream } from './support/bff.ts';
import { DashboardClient, expectFailure } from './support/client.ts';
import { MANAGER, SMS, STAFF } from './support/fixtures.ts';

// Dashboard login, sessions and roles over real HTTP against the real BFF process.

let upstream: FakeUpstream;
let bff: TestBff;
let owner: DashboardClient;

useBffOnFakeUpstream((stack) => ({ upstream, bff, owner } = stack), {
  BUSINESS_NAME: 'Harbour Street Coffee',
  FREQUENCY_CAP_DAYS: '14',
});

afterEach(() => upstream.reset());

describe('login, me, logout', () => {
  it('answers a login like /auth/me and sets an HttpOnly, SameSite=Strict session cookie', async () => {
    const client = bff.client();
    const reply = await client.login(OWNER.email.toUpperCase(), OWNER.password);
    expect(reply.status).toBe(200);
    const me = meSchema.parse(reply.json.data);
    expect(me).toEqual({
      user: { id: expect.any(String), email: OWNER.email, role: 'owner' },
      permissions: [...ROLE_PERMISSIONS.owner],
      business: { name: 'Harbour Street Coffee' },
      settings: { frequencyCapDays: 14 },
    });
    const cookie = reply.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^rd_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    const again = await client.get('/auth/me');
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual(reply.json.data);
  });

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const wrong = await bff.client().login(OWNER.email, 'not-the-password');
    const unknown = await bff.client().login('nobody@example.com', 'not-the-password');
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.json).toEqual({
      success: false,
      error: 'Email or password is incorrect.',
      code: 'login_failed',
    });
    expect(unknown.json).toEqual(wrong.json);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('answers 405 for other methods on the auth routes', async () => {
    const client = bff.client();
    expect((await client.get('/auth/login')).status).toBe(405);
    expect((await client.get('/auth/logout')).headers.get('allow')).toBe('POST');
    expect((await client.request('DELETE', '/auth/me')).status).toBe(405);
  });

  it('validates the login body with the shared schema', async () => {
    const reply = await bff.client().post('/auth/login', { email: OWNER.email });
    expect(reply.status).toBe(400);
    expect(reply.json.fields).toEqual({ password: 'Password is required' });
  });

  it('answers 401 with X-Auth-Required: session when there is no session', async () => {
    for (const path of ['/auth/me', '/api/v1/reviews', '/bff/sends', '/bff/users']) {
      const reply = await bff.client().get(path);
      expect(reply.status).toBe(401);
      expect(reply.headers.get('x-auth-required')).toBe('session');
      expect(reply.json.success).toBe(false);
    }
    const forged = bff.client();
    forged.cookie = `rd_session=${'A'.repeat(43)}`;
    expect((await forged.get('/auth/me')).status).toBe(401);
    expect(upstream.calls).toHaveLength(0);
  });

  it('rotates the session id at login: the previous one stops working', async () => {
    const client = await bff.owner();
    const before = client.cookie!;
    await client.login(OWNER.email, OWNER.password);
    expect(client.cookie).not.toBe(before);
    const stale = bff.client();
    stale.cookie = before;
    expect((await stale.get('/auth/me')).status).toBe(401);
    expect((await client.get('/auth/me')).status).toBe(200);
  });

  it('logout ends the session on the server, not just in the browser', async () => {
    const client = await bff.owner();
    const token = client.cookie!;
    const reply = await client.post('/auth/logout', {});
    expect(reply.status).toBe(200);
    expect(reply.headers.getSetCookie().join()).toMatch(/rd_session=; .*Max-Age=0/);
    const replayed = bff.client();
    replayed.cookie = token;
    expect((await replayed.get('/auth/me')).status).toBe(401);
    expect((await replayed.get('/api/v1/reviews')).status).toBe(401);
    expect(upstream.calls).toHaveLength(0);
  });
});

describe('roles, enforced on the server', () => {
  let manager: DashboardClient;
  let staff: DashboardClient;

  beforeAll(async () => {
    for (const [user, role] of [
      [MANAGER, 'manager'],
      [STAFF, 'staff'],
    ] as const) {
      const created = await owner.post('/bff/users', { ...user, role });
      expect(created.status).toBe(201);
      expect(userSchema.parse(created.json.data.user)).toMatchObject({ email: user.email, role });
    }
    manager = new DashboardClient(bff.url);
    staff = new DashboardClient(bff.url);
    await manager.login(MANAGER.email, MANAGER.password);
    await staff.login(STAFF.email, STAFF.password);
  });

  it('each role × each route: allowed calls reach the upstream, forbidden ones get 403 and do not', async () => {
    const routes: [string, (c: DashboardClient) => Promise<{ status: number }>][] = [
      ['reviews', (c) => c.get('/api/v1/reviews')],
      ['analytics', (c) => c.get('/api/v1/analytics?days=7')],
      ['send', (c) => c.send(SMS)],
      ['sends', (c) => c.get('/bff/sends')],
      ['users', (c) => c.get('/bff/users')],
      [
        'create user',
        (c) =>
          c.post('/bff/users', {
            email: `x${Date.now()}@example.com`,
            role: 'staff',
            password: 'p'.repeat(12),
          }),
      ],
    ];
    const expected: Record<string, Record<string, number>> = {
      owner: { reviews: 200, analytics: 200, send: 200, sends: 200, users: 200, 'create user': 201 },
      manager: { reviews: 200, analytics: 200, send: 200, sends: 200, users: 403, 'create user': 403 },
      staff: { reviews: 200, analytics: 403, send: 200, sends: 200, users: 403, 'create user': 403 },
    };
    const clients = { owner, manager, staff };
    for (const [role, client] of Object.entries(clients)) {
      const got: Record<string, number> = {};
      for (const [name, call] of routes) got[name] = (await call(client)).status;
      expect({ role, got }).toEqual({ role, got: expected[role] });
    }
    // Upstream calls: reviews ×3, analytics ×2 (owner, manager), send ×3.
    expect(upstream.count('/api/v1/reviews')).toBe(3);
    expect(upstream.count('/api/v1/analytics')).toBe(2);
    expect(upstream.count('/api/v1/requests/send')).toBe(3);
  });

  it('says which permission a role lacks', async () => {
    const reply = await staff.get('/api/v1/analytics');
    expectFailure(
      reply,
      403,
      'role_forbidden',
      'Your role (staff) does not allow this: it needs the analytics:read permission.',
    );
    expect(reply.headers.get('x-auth-required')).toBeNull();
  });

  it('applies a role change at once, without a new login', async () => {
    const list = await owner.get('/bff/users');
    const staffId = list.json.data.users.find((u: { email: string }) => u.email === STAFF.email).id;
    expect(
      (await owner.request('PATCH', `/bff/users/${staffId}`, { body: { role: 'manager' } })).status,
    ).toBe(200);
    expect((await staff.get('/api/v1/analytics')).status).toBe(200);
    expect((await owner.request('PATCH', `/bff/users/${staffId}`, { body: { role: 'staff' } })).status).toBe(
      200,
    );
    expect((await staff.get('/api/v1/analytics')).status).toBe(403);
  });
});

describe('user management', () => {
  it('refuses a duplicate email and a short password', async () => {
    const dup = await owner.post('/bff/users', {
      email: OWNER.email,
      role: 'staff',
      password: 'long-enough-pass',
    });
    expect(dup.status).toBe(409);
    const short = await owner.post('/bff/users', {
      email: 'new@example.com',
      role: 'staff',
      password: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.json.fields.password).toMatch(/at least 12/);
  });

  it('never lets the last owner be demoted or removed', async () => {
    const me = (await owner.get('/auth/me')).json.data.user;
    const demote = await owner.request('PATCH', `/bff/users/${me.id}`, { body: { role: 'staff' } });
    expect(demote.status).toBe(409);
    expect(demote.json.error).toMatch(/last owner/);
    const remove = await owner.request('DELETE', `/bff/users/${me.id}`);
    expect(remove.status).toBe(409);
    expect((await owner.get('/auth/me')).json.data.user.role).toBe('owner');
  });

  it('a new password or a removal ends the user’s sessions', async () => {
    const user = { email: 'temp@example.com', password: 'temporary-pass-1' };
    const created = await owner.post('/bff/users', { ...user, role: 'staff' });
    const id = created.json.data.user.id;
    const client = new DashboardClient(bff.url);
    await client.login(user.email, user.password);
    expect((await client.get('/auth/me')).status).toBe(200);
    await owner.request('PATCH', `/bff/users/${id}`, { body: { password: 'another-password-2' } });
    expect((await client.get('/auth/me')).status).toBe(401);
    expect((await client.login(user.email, 'another-password-2')).status).toBe(200);
    expect((await owner.request('DELETE', `/bff/users/${id}`)).status).toBe(200);
    expect((await client.get('/auth/me')).status).toBe(401);
    expect((await owner.request('DELETE', `/bff/users/${id}`)).status).toBe(404);
  });

  it('every user changes their own password: the current one required and throttled, their other sessions ended', async () => {
    const user = { email: 'self-service@example.com', password: 'first-password-123' };
    expect((await owner.post('/bff/users', { ...user, role: 'staff' })).status).toBe(201);
    const here = new DashboardClient(bff.url);
    const elsewhere = new DashboardClient(bff.url);
    await here.login(user.email, user.password);
    await elsewhere.login(user.email, user.password);

    const wrong = await here.post('/auth/password', {
      currentPassword: 'not-my-password',
      newPassword: 'second-password-456',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({
      code: 'password_incorrect',
      fields: { currentPassword: 'The current password is not right.' },
    });
    const short = await here.post('/auth/password', { currentPassword: user.password, newPassword: 'short' });
    expect(short.json.fields).toEqual({ newPassword: 'New password must be at least 12 characters' });

    const changed = await here.post('/auth/password', {
      currentPassword: user.password,
      newPassword: 'second-password-456',
    });
    expect(changed.status).toBe(200);
    expect(changed.json.data.user.email).toBe(user.email);
    // This browser carries on with a fresh session; the one elsewhere is over.
    expect(changed.headers.getSetCookie()[0]).toMatch(/^rd_session=/);
    expect((await here.get('/auth/me')).status).toBe(200);
    expect((await elsewhere.get('/auth/me')).status).toBe(401);
    expect((await bff.client().login(user.email, user.password)).status).toBe(401);
    expect((await bff.client().login(user.email, 'second-password-456')).status).toBe(200);

    // Guessing the current password with a session is held to the sign-in limit.
    const guesses = [];
    for (let i = 0; i < 6; i++)
      guesses.push(
        (
          await here.post('/auth/password', {
            currentPassword: `guess-${i}`,
            newPassword: 'third-password-789',
          })
        ).status,
      );
    expect(guesses.slice(0, 4)).toEqual([400, 400, 400, 400]);
    expect(guesses.at(-1)).toBe(429);
    // Not signed in, or from another site: refused before anything is checked.
    expect(
      (await bff.client().post('/auth/password', { currentPassword: 'x', newPassword: 'y' })).status,
    ).toBe(401);
  });

  it('the CLI adds, lists, resets and removes users in the same database', async () => {
    const env = { BFF_DATABASE_PATH: bff.databasePath };
    const added = await runCli('bff', ['user', 'add', '--email', 'cli@example.com', '--role', 'manager'], {
      env,
      stdin: 'cli-password-123\n',
    });
    expect(added).toMatch(/^Created manager cli@example\.com/);
    const client = new DashboardClient(bff.url);
    expect((await client.login('cli@example.com', 'cli-password-123')).status).toBe(200);
    // Independent commands run side by side (each is a process start).
    const [listed] = await Promise.all([
      runCli('bff', ['user', 'list', '--json'], { env }).then(
        (out) => JSON.parse(out) as { email: string }[],
      ),
      expect(
        runCli('bff', ['user', 'add', '--email', 'x@example.com', '--role', 'admin'], {
          env,
          stdin: 'whatever-password\n',
        }),
      ).rejects.toThrow(/exited 2.*Role must be one of owner, manager, staff/s),
      expect(
        runCli('bff', ['user', 'add', '--email', 'y@example.com', '--role', 'staff'], {
          env,
          stdin: 'short\n',
        }),
      ).rejects.toThrow(/at least 12 characters/),
    ]);
    expect(listed.map((u) => u.email)).toContain('cli@example.com');
    await runCli('bff', ['user', 'passwd', '--email', 'cli@example.com'], {
      env,
      stdin: 'cli-password-456\n',
    });
    expect((await client.get('/auth/me')).status).toBe(401);
    expect((await client.login('cli@example.com', 'cli-password-456')).status).toBe(200);
    await runCli('bff', ['user', 'remove', '--email', 'cli@example.com'], { env });
    expect((await client.get('/auth/me')).status).toBe(401);
    await expect(runCli('bff', ['user', 'remove', '--email', OWNER.email], { env })).rejects.toThrow(
      /last owner/,
    );
  });
});
