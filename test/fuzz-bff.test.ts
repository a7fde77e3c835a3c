import { sendRequestSchema } from '@review-desk/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Behaviour,
  BFF_READ_HEADERS,
  BFF_SEND_HEADERS,
  type FakeUpstream,
  faults,
  type Recorded,
  startFakeUpstream,
} from './support/fault-upstream.ts';
import { recordFigure } from './support/figures.ts';
import { applyMutations, type FuzzRequest, fuzzRun, mutations } from './support/fuzz.ts';
import { isEnvelope, type Reply, type Session } from './support/http.ts';
import { scaled } from './support/soak.ts';
import { addUser, OWNER, type SystemBff, startSystemBff, type TestUser } from './support/stack.ts';

// Fuzzing the running BFF. For every request, however hostile: never a 5xx unless the upstream
// was told to fail, never a crash, never a body that is not the envelope (the dashboard's own
// pages excepted), and the upstream sees nothing but the three allow-listed calls with canonical
// queries and the BFF's own headers.

const CASES = scaled(3_000, 60_000, 'FUZZ_BFF_CASES');
const STAFF: TestUser = { email: 'fuzz-staff@example.com', password: 'fuzz-staff-password', role: 'staff' };

let upstream: FakeUpstream;
let bff: SystemBff;
let owner: Session;
let staff: Session;
let staffId: string;
let reloginCount = 0;

const fuzz = fuzzRun();

beforeAll(async () => {
  upstream = await startFakeUpstream();
  // X-Forwarded-For decides the client IP, so the fuzzer's own sign-ins are not throttled by its
  // random ones.
  bff = await startSystemBff(upstream.url, { UPSTREAM_TIMEOUT_MS: '3000', TRUST_PROXY: 'loopback' });
  owner = await bff.owner();
  staffId = (await addUser(owner, STAFF)).id;
  staff = bff.session();
  await staff.login(STAFF.email, STAFF.password);
});

afterAll(async () => {
  fuzz.close();
  await bff?.cleanup();
  await upstream?.close();
});

const ROUTES = [
  '/api/v1/reviews',
  '/api/v1/analytics',
  '/api/v1/requests/send',
  '/api/v1',
  '/api',
  '/auth/login',
  '/auth/logout',
  '/auth/me',
  '/bff/sends',
  '/bff/users',
  '/bff/users/STAFF_ID',
  '/healthz',
  '/readyz',
  '/metrics',
  '/',
  '/reviews',
  '/send',
  '/assets/index-Ab12.js',
  '/favicon.svg',
] as const;

const EXTRA_HEADERS = [
  'cookie',
  'origin',
  'x-csrf',
  'sec-fetch-site',
  'content-type',
  'idempotency-key',
  'accept',
  'accept-language',
  'accept-encoding',
  'authorization',
  'x-api-key',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'forwarded',
  'referer',
  'content-encoding',
  'range',
  'if-none-match',
  'x-request-id',
  'access-control-request-method',
  'access-control-request-headers',
  'x-http-method-override',
  'host',
];

/** Quick faults only: the slow ones are covered by faults.test.ts, one at a time. */
const FUZZ_FAULTS: Record<string, () => Behaviour> = {
  serverError: faults.serverError,
  unavailable: faults.unavailable,
  gatewayPage: () => faults.gatewayPage(502),
  rateLimited: () => faults.rateLimited(5),
  malformedJson: faults.malformedJson,
  notEnvelope: () => faults.notEnvelope(),
  wrongContentType: faults.wrongContentType,
  resetAfterBody: faults.resetAfterBody,
  closeAfterBody: faults.closeAfterBody,
};

const FORWARDED = ['/api/v1/reviews', '/api/v1/analytics', '/api/v1/requests/send'];
const REUSED_KEY = '0b6f7c1e-3c2a-4f7e-9d55-6a0f3f9d8b21';

type Who = 'owner' | 'staff';
type Template = (who: Who) => FuzzRequest;
const json = (value: unknown) => JSON.stringify(value);

/** Well-formed requests of every route, as the dashboard makes them; the mutations break them. */
const TEMPLATES: Record<string, Template> = {
  reviews: () => ({ method: 'GET', target: '/api/v1/reviews?page=1&limit=20', headers: {}, body: undefined }),
  analytics: () => ({ method: 'GET', target: '/api/v1/analytics?days=30', headers: {}, body: undefined }),
  send: () => ({
    method: 'POST',
    target: '/api/v1/requests/send',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: json({ channel: 'sms', customerName: 'Fuzz', customerPhone: '+14155552671' }),
  }),
  'send again': () => ({
    method: 'POST',
    target: '/api/v1/requests/send',
    headers: { 'content-type': 'application/json', 'idempotency-key': REUSED_KEY },
    body: json({ channel: 'link' }),
  }),
  sends: () => ({ method: 'GET', target: '/bff/sends?limit=5', headers: {}, body: undefined }),
  me: () => ({ method: 'GET', target: '/auth/me', headers: {}, body: undefined }),
  login: () => ({
    method: 'POST',
    target: '/auth/login',
    headers: { 'content-type': 'application/json' },
    body: json({ email: 'nobody@example.com', password: 'not-the-password' }),
  }),
  logout: () => ({ method: 'POST', target: '/auth/logout', headers: { cookie: '' }, body: undefined }),
  users: () => ({ method: 'GET', target: '/bff/users', headers: {}, body: undefined }),
  'add user': () => ({
    method: 'POST',
    target: '/bff/users',
    headers: { 'content-type': 'application/json' },
    body: json({ email: `u${Date.now()}@example.com`, role: 'staff', password: 'a-long-enough-password' }),
  }),
  'change user': () => ({
    method: 'PATCH',
    target: '/bff/users/STAFF_ID',
    headers: { 'content-type': 'application/json' },
    body: json({ role: 'staff' }),
  }),
  health: () => ({ method: 'GET', target: '/healthz', headers: {}, body: undefined }),
  ready: () => ({ method: 'GET', target: '/readyz', headers: {}, body: undefined }),
  metrics: () => ({ method: 'GET', target: '/metrics', headers: {}, body: undefined }),
  page: () => ({
    method: 'GET',
    target: '/reviews?status=pending',
    headers: { accept: 'text/html' },
    body: undefined,
  }),
};

const caseArb = fc.record({
  // The three forwarded routes weigh more: they are where the allow-list is tested.
  template: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('reviews', 'analytics', 'send', 'send again') },
    { weight: 2, arbitrary: fc.constantFrom(...Object.keys(TEMPLATES)) },
  ),
  who: fc.constantFrom<Who>('owner', 'owner', 'staff'),
  changes: mutations(ROUTES, EXTRA_HEADERS),
  fault: fc.option(fc.constantFrom(...Object.keys(FUZZ_FAULTS)), { freq: 6 }),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** The template as the signed-in user's browser sends it (cookie, X-CSRF, Origin), then mutated. */
function build(c: Case): FuzzRequest {
  const base = TEMPLATES[c.template]!(c.who);
  const session = c.who === 'owner' ? owner : staff;
  const headers: Record<string, string> = { accept: 'application/json', ...base.headers };
  if (headers.cookie === '') delete headers.cookie;
  else if (session.cookie) headers.cookie = session.cookie;
  if (base.method !== 'GET') {
    headers['x-csrf'] = '1';
    headers.origin = bff.url;
  }
  const request = applyMutations({ ...base, headers }, c.changes);
  request.target = request.target.replace('STAFF_ID', staffId);
  return request;
}

/** Whose session a request carries, as far as the BFF can tell. */
function sessionOf(req: FuzzRequest): 'owner' | 'staff' | 'none' {
  const cookie = req.headers.cookie ?? '';
  if (owner.cookie && cookie.includes(owner.cookie.split('=')[1]!)) return 'owner';
  if (staff.cookie && cookie.includes(staff.cookie.split('=')[1]!)) return 'staff';
  return 'none';
}

const UPSTREAM_HEADERS = new Set<string>([...BFF_READ_HEADERS, 'connection']);
const SEND_HEADERS = new Set<string>([...BFF_SEND_HEADERS, 'connection']);

/** Why an upstream call is outside the allow-list, or null when it is one of the three. */
function forbiddenForward(call: Recorded): string | null {
  const [path, query = ''] = call.url.split(/\?(.*)/s);
  const names = Object.keys(call.headers);
  if (call.headers['x-api-key'] !== bff.key) return 'the key header is not the server’s key';
  if (call.headers.host !== new URL(upstream.url).host) return `Host ${call.headers.host}`;
  if (call.method === 'GET' && path === '/api/v1/reviews') {
    const match =
      /^page=(\d+)&limit=(\d+)(?:&status=(?:pending|responded|ignored))?(?:&minRating=([1-5]))?$/.exec(query);
    if (!match) return `reviews query not canonical: ${query}`;
    if (Number(match[1]) < 1 || Number(match[2]) < 1 || Number(match[2]) > 100)
      return `reviews query out of range: ${query}`;
  } else if (call.method === 'GET' && path === '/api/v1/analytics') {
    const match = /^days=(\d+)$/.exec(query);
    if (!match || Number(match[1]) < 1 || Number(match[1]) > 365) return `analytics query: ${query}`;
  } else if (call.method === 'POST' && path === '/api/v1/requests/send' && query === '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(call.body.toString('utf8'));
    } catch {
      return 'send body is not JSON';
    }
    if (!sendRequestSchema.safeParse(parsed).success) return 'send body the shared schema refuses';
    if (call.headers.origin !== upstream.url) return `Origin ${call.headers.origin}`;
    const extra = names.filter((n) => !SEND_HEADERS.has(n));
    return extra.length > 0 ? `headers not the BFF’s own: ${extra.join(', ')}` : null;
  } else {
    return `${call.method} ${call.url.slice(0, 200)} is not on the allow-list`;
  }
  const extra = names.filter((n) => !UPSTREAM_HEADERS.has(n));
  return extra.length > 0 ? `headers not the BFF’s own: ${extra.join(', ')}` : null;
}

/** A response the dashboard's own static routes may give: anything but an error page. */
function isStaticRoute(target: string): boolean {
  const path = target.split('?')[0] ?? '';
  return !/^\/(api|auth|bff)(\/|$)/.test(path) && path !== '/healthz' && path !== '/readyz';
}

const stats = { faults: 0, forwarded: 0 };

async function check(req: FuzzRequest, faultName: string | null): Promise<void> {
  const who = sessionOf(req);
  const before = upstream.calls.length;
  // Faults on the three routes only: the health probe behind /readyz stays healthy, so a 503
  // from /readyz would be the BFF's own failure.
  const fault = faultName ? FUZZ_FAULTS[faultName]!() : null;
  for (const route of FORWARDED) upstream.behaveOn(route, fault);
  let sent: { reply: Reply; label: string };
  try {
    sent = await fuzz.send(bff.url, req);
  } finally {
    for (const route of FORWARDED) upstream.behaveOn(route, null);
  }
  const { reply, label } = sent;
  const calls = upstream.calls.slice(before);
  stats.forwarded += calls.length;
  if (faultName && calls.length > 0) stats.faults++;

  // Never a 5xx, unless the upstream was told to fail and was called.
  if (reply.status >= 500) {
    expect(faultName !== null && calls.length > 0, `5xx without an upstream fault: ${label}`).toBe(true);
    expect([500, 502, 503, 504], label).toContain(reply.status);
  }
  // Never a body that is not the envelope, except the dashboard's own pages and the metrics.
  const bare = req.method === 'HEAD' || reply.status === 204 || reply.status === 304;
  const exempt = isStaticRoute(req.target) || req.target.split('?')[0] === '/metrics';
  if (!bare && !exempt) expect(isEnvelope(reply.json), `not the envelope: ${label}`).toBe(true);
  // Only the three allow-listed calls, only for a session whose role allows them.
  for (const call of calls) {
    expect(
      forbiddenForward(call),
      `forwarded ${call.method} ${call.url.slice(0, 200)} for ${label}`,
    ).toBeNull();
    expect(who, `forwarded without a session: ${label}`).not.toBe('none');
    if (who === 'staff')
      expect(call.url.startsWith('/api/v1/analytics'), `staff reached analytics: ${label}`).toBe(false);
  }
  if (calls.length > 1) expect.fail(`one request, ${calls.length} upstream calls: ${label}`);

  // A fuzzed sign-out (or password change) ends the session the fuzzer uses: sign in again.
  if (reply.headers['set-cookie'] || req.target.includes('/bff/users') || req.target.includes('/auth/')) {
    await keepSessions();
  }
}

async function keepSessions() {
  for (const [session, user] of [
    [owner, OWNER],
    [staff, STAFF],
  ] as const) {
    if ((await session.get('/auth/me')).status === 200) continue;
    reloginCount++;
    const from = { 'x-forwarded-for': `10.9.${reloginCount % 250}.${(reloginCount >> 8) % 250}` };
    const credentials = { email: user.email, password: user.password };
    const login = await session.request('POST', '/auth/login', { json: credentials, headers: from });
    if (login.status === 200 || session === owner) continue;
    // A fuzzed PATCH or DELETE changed or removed the staff user: put it back.
    const reset = await owner.request('PATCH', `/bff/users/${staffId}`, {
      json: { role: 'staff', password: STAFF.password },
    });
    if (reset.status === 404) staffId = (await addUser(owner, STAFF)).id;
    await session.request('POST', '/auth/login', { json: credentials, headers: from });
  }
}

describe('fuzzing the BFF', () => {
  it(`${CASES.toLocaleString('en-US')} random and adversarial requests: no 5xx, no crash, only envelopes, only the allow-list forwarded`, async () => {
    await fuzz.run({
      cookie: owner.cookie!,
      routes: ROUTES,
      check: (example) => check(example, null),
      cases: caseArb,
      checkCase: (c) => check(build(c), c.fault),
      numRuns: CASES,
    });

    // Still alive and well.
    expect(bff.app.child.exitCode).toBeNull();
    expect((await bff.session().get('/healthz')).status).toBe(200);
    expect((await owner.get('/api/v1/reviews')).status).toBe(200);
    expect(bff.app.logs.join('\n')).not.toMatch(/uncaught exception|unhandled error/);

    fuzz.recordFigures('BFF');
    recordFigure({
      area: 'fuzz',
      what: 'BFF cases with an upstream fault',
      value: stats.faults,
      summary: 'counted',
    });
    recordFigure({
      area: 'fuzz',
      what: 'BFF calls forwarded (all allow-listed)',
      value: stats.forwarded,
      summary: 'counted',
    });
  });
});
