import http from 'node:http';
import fc from 'fast-check';
import { recordFigure } from './figures.ts';
import { type Reply, request } from './http.ts';

// Adversarial HTTP requests for fuzzing the running apps: paths with encodings, traversal and
// overlong segments; query strings with hostile keys and values; headers; JSON bodies with deep
// nesting, huge numbers, unicode and prototype-pollution keys. Shared by the BFF and API fuzzers.

export type FuzzRequest = {
  method: string;
  target: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
};

/**
 * Sends one case to the app at baseUrl (to `target` when the case's own needs filling in). A case
 * that gets no answer at all — a crash, a hang, a dropped connection — fails with what was sent.
 */
export async function sendCase(
  baseUrl: string,
  req: FuzzRequest,
  agent: http.Agent,
  target = req.target,
): Promise<Reply> {
  try {
    return await request(baseUrl, target, {
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      agent,
      timeoutMs: 20_000,
    });
  } catch (error) {
    throw new Error(`${req.method} ${req.target.slice(0, 120)}: no answer (${(error as Error).message})`);
  }
}

/** The seed every fuzz run starts from, so a failure can be replayed (FUZZ_SEED overrides it). */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_240_611);

const HOSTILE_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2e',
  '%2e',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '%00',
  '%252e%252e',
  '%252f',
  '%25',
  '%',
  '%zz',
  '%e9',
  '%C3%A9',
  '%FF%FE',
  '\u00e9',
  '\u00ff\u00fe',
  ';jsessionid=1',
  '*',
  '~',
  '__proto__',
  'constructor',
  'prototype',
  'REVIEWS',
  'reviews',
  'analytics',
  'send',
  'requests',
  'v1',
  'v2',
  'api',
  '',
];

/** A path segment: hostile pieces, random text (escaped or left raw where HTTP allows), or a long run. */
export const segment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)) },
  // Raw bytes Node's client lets through (0x21–0xff): latin-1 that is not valid UTF-8 included.
  {
    weight: 2,
    arbitrary: fc
      .array(fc.integer({ min: 0x21, max: 0xff }), { minLength: 1, maxLength: 8 })
      .map((codes) => String.fromCharCode(...codes).replace(/[?#]/g, '')),
  },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 3_000 }).map((n) => 'a'.repeat(n)) },
);

/** A path: a known route, maybe with hostile segments around it, maybe doubled slashes or backslashes. */
export function pathFrom(routes: readonly string[]) {
  return fc
    .tuple(
      fc.constantFrom(...routes),
      fc.array(segment, { maxLength: 3 }),
      fc.constantFrom('append', 'prepend', 'replace-last', 'none', 'none', 'none'),
      fc.constantFrom('/', '/', '/', '//', '\\', '/./', '/../'),
    )
    .map(([route, extra, where, joint]) => {
      if (where === 'none' || extra.length === 0) return route;
      const parts = route.split('/').filter(Boolean);
      if (where === 'append') return `/${[...parts, ...extra].join(joint)}`;
      if (where === 'prepend') return `/${[...extra, ...parts].join(joint)}`;
      return `/${[...parts.slice(0, -1), ...extra].join(joint)}`;
    });
}

const QUERY_KEYS = [
  'page',
  'limit',
  'status',
  'minRating',
  'days',
  'contact',
  'api_key',
  'apikey',
  'key',
  'token',
  'access_token',
  '__proto__',
  '__proto__[polluted]',
  'constructor',
  'constructor[prototype][x]',
  'prototype',
  'toString',
  'hasOwnProperty',
  'page[]',
  '',
];

const NUMBERISH = [
  '1',
  '0',
  '-1',
  '2',
  '5',
  '6',
  '20',
  '100',
  '101',
  '365',
  '366',
  '1e3',
  '0x10',
  '1.5',
  ' 1',
  '1 ',
  '+1',
  '01',
  'NaN',
  'Infinity',
  '9007199254740993',
  '99999999999999999999999999999',
  '1000000000',
  '1000000001',
  '',
];

const queryValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NUMBERISH) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('pending', 'responded', 'ignored', 'deleted', 'PENDING', 'null', 'true'),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constant(`rd_live_${'A'.repeat(43)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 4_000 }).map((n) => '9'.repeat(n)) },
);

/** Valid queries of the three routes (in any order): the fuzzer must also reach the deep paths. */
const validQuery = fc
  .oneof(
    fc
      .record(
        {
          page: fc.integer({ min: 1, max: 50 }),
          limit: fc.integer({ min: 1, max: 100 }),
          status: fc.constantFrom('pending', 'responded', 'ignored'),
          minRating: fc.integer({ min: 1, max: 5 }),
        },
        { requiredKeys: [] },
      )
      .chain((values) =>
        fc.shuffledSubarray(Object.entries(values), { minLength: Object.keys(values).length }),
      ),
    fc.integer({ min: 1, max: 365 }).map((days) => [['days', days]] as [string, unknown][]),
    fc.emailAddress().map((email) => [['contact', email]] as [string, unknown][]),
  )
  .map((pairs) =>
    pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&')}`,
  );

/** A query string: hostile keys and values, encoded properly or not, repeated keys, stray separators. */
const hostileQuery = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), queryValue), { maxLength: 6 }),
    fc.constantFrom('encoded', 'encoded', 'raw', 'broken'),
    fc.constantFrom('&', '&', '&', ';', '&&'),
  )
  .map(([pairs, style, joiner]) => {
    if (pairs.length === 0) return '';
    const encode = (s: string) =>
      style === 'encoded'
        ? encodeURIComponent(s)
        : style === 'raw'
          ? s.replace(/[^\x21-\xff]|[#&=]/gu, (c) => encodeURIComponent(c))
          : s.replace(/[^\x21-\xff]|#/gu, '%').replace(/^/, '%');
    return `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join(joiner)}`;
  });

export const queryString = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: validQuery },
  { weight: 4, arbitrary: hostileQuery },
);

/** Header values Node's client can put on the wire (no CR, LF or NUL). */
export const headerValue = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.integer({ min: 0x20, max: 0xff }), { maxLength: 30 })
      .map((codes) => String.fromCharCode(...codes).replace(/\x7f/g, '')),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 6_000 }).map((n) => 'h'.repeat(n)) },
);

const deepArray = fc.integer({ min: 100, max: 6_000 }).map((n) => '['.repeat(n) + ']'.repeat(n));
const deepObject = fc.integer({ min: 100, max: 3_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`);
const hugeNumbers = fc.constantFrom(
  '{"channel":"link","customerName":1e999999}',
  '{"page":123456789012345678901234567890,"limit":-0}',
  '{"channel":"sms","customerPhone":14155552671}',
  '{"customerPhone":"+1415555267112345678901234567890","channel":"sms"}',
  `{"customerName":"${'9'.repeat(5_000)}","channel":"link"}`,
  '[1e308, -1e308, 5e-324, 1.7976931348623157e309]',
);
const pollution = fc.constantFrom(
  '{"__proto__":{"isAdmin":true,"role":"owner"},"channel":"link"}',
  '{"constructor":{"prototype":{"polluted":"yes"}},"channel":"link"}',
  '{"channel":"link","__proto__":null}',
  '{"email":"owner@example.com","password":"x","__proto__":{"role":"owner"}}',
  '{"prototype":{"toString":"boom"},"channel":"email","customerEmail":"a@example.com"}',
  '{"__proto__":{"__proto__":{"x":1}}}',
  '{"toString":1,"valueOf":2,"hasOwnProperty":3}',
  '{"role":"owner","__proto__":{"role":"owner"},"password":"owner-password-1234"}',
);
const sendish = fc
  .record(
    {
      channel: fc.constantFrom('sms', 'email', 'both', 'link', 'fax', '', 'SMS'),
      customerName: fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 30 })),
      customerPhone: fc.oneof(
        fc.constantFrom('+14155552671', '+44 20 7946 0958', '+1 415 555 0000', '12345', '+', '+0000000000'),
        fc.string({ maxLength: 20 }),
      ),
      customerEmail: fc.oneof(
        fc.constantFrom('a@example.com', 'x@fail.example', 'not-an-email', '"@"@example.com'),
        fc.emailAddress(),
      ),
    },
    { requiredKeys: [] },
  )
  .map((value) => JSON.stringify(value));

/** Sends the shared schema accepts, spelled the ways people type them. */
const validSend = fc
  .oneof(
    fc.record({ channel: fc.constant('link'), customerName: fc.string({ unit: 'grapheme', maxLength: 40 }) }),
    fc.record({
      channel: fc.constantFrom('sms', undefined),
      customerPhone: fc.constantFrom(
        '+14155552671',
        '+1 (415) 555-2672',
        '+44 20 7946 0958',
        '+33 6 12 34 56 78',
      ),
    }),
    fc.record({ channel: fc.constant('email'), customerEmail: fc.emailAddress() }),
    fc.record({
      channel: fc.constant('both'),
      customerPhone: fc.constant('+14155552673'),
      customerEmail: fc.constantFrom('b@example.com', 'x@fail.example'),
    }),
  )
  .map((value) => JSON.stringify(value));

/** A request body: none, a send-shaped body, any JSON, hostile JSON, broken JSON, or bytes. */
export const body = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: validSend },
  { weight: 3, arbitrary: sendish },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: deepArray },
  { weight: 1, arbitrary: deepObject },
  { weight: 1, arbitrary: hugeNumbers },
  { weight: 2, arbitrary: pollution },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.constant(`{"channel":"link","customerName":"${'x'.repeat(17_000)}"}`) },
);

export const method = fc.oneof(
  { weight: 6, arbitrary: fc.constant('GET') },
  { weight: 5, arbitrary: fc.constant('POST') },
  { weight: 3, arbitrary: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
  { weight: 1, arbitrary: fc.constantFrom('TRACE', 'PROPFIND', 'QUERY', 'PURGE') },
);

/** One change to a request; descriptors (not closures) so a failing case prints readably. */
export type Mutation =
  | { kind: 'method'; value: string }
  | { kind: 'path'; value: string }
  | { kind: 'segment'; value: string; at: number }
  | { kind: 'query'; value: string }
  | { kind: 'header'; name: string; value: string }
  | { kind: 'drop-header'; name: string }
  | { kind: 'body'; value: string | Buffer | undefined };

/** Mutations of a well-formed request: each case is a valid request changed in 0–4 ways. */
export function mutations(routes: readonly string[], headerNames: readonly string[]) {
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: 2, arbitrary: method.map((value) => ({ kind: 'method' as const, value })) },
    { weight: 2, arbitrary: pathFrom(routes).map((value) => ({ kind: 'path' as const, value })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(segment, fc.nat({ max: 4 }))
        .map(([value, at]) => ({ kind: 'segment' as const, value, at })),
    },
    { weight: 3, arbitrary: queryString.map((value) => ({ kind: 'query' as const, value })) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...headerNames), headerValue)
        .map(([name, value]) => ({ kind: 'header' as const, name, value })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('content-type', 'cookie', 'origin', 'x-csrf', 'idempotency-key'),
          fc.constantFrom(...CONTENT_TYPES),
        )
        .map(([name, value]) => ({ kind: 'header' as const, name, value })),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('content-type', 'cookie', 'origin', 'x-csrf', 'idempotency-key', 'x-api-key')
        .map((name) => ({ kind: 'drop-header' as const, name })),
    },
    { weight: 3, arbitrary: body.map((value) => ({ kind: 'body' as const, value })) },
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant([] as Mutation[]) },
    { weight: 3, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 4 }) },
  );
}

export function applyMutations(request: FuzzRequest, changes: readonly Mutation[]): FuzzRequest {
  let { method: verb, target, body: payload } = request;
  const headers = { ...request.headers };
  for (const change of changes) {
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const query = q === -1 ? '' : target.slice(q);
    if (change.kind === 'method') verb = change.value;
    else if (change.kind === 'path') target = change.value + query;
    else if (change.kind === 'segment') {
      const parts = path.split('/');
      parts.splice(Math.min(change.at + 1, parts.length), 0, change.value);
      target = parts.join('/') + query;
    } else if (change.kind === 'query') target = path + change.value;
    else if (change.kind === 'header') headers[change.name] = change.value;
    else if (change.kind === 'drop-header') delete headers[change.name];
    else {
      payload = change.value;
      if (payload !== undefined) headers['content-type'] ??= 'application/json';
    }
  }
  return { method: verb, target, headers, body: payload };
}

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
];

/** Requests that always run first: the overlong and deeply nested cases a random walk may miss. */
export function fixedExamples(base: { cookie: string; routes: readonly string[] }): FuzzRequest[] {
  const json = { 'content-type': 'application/json', cookie: base.cookie };
  return [
    { method: 'GET', target: `/${'a'.repeat(20_000)}`, headers: {}, body: undefined },
    { method: 'GET', target: `${base.routes[0]}?x=${'b'.repeat(70_000)}`, headers: {}, body: undefined },
    { method: 'GET', target: base.routes[0]!, headers: { 'x-padding': 'p'.repeat(20_000) }, body: undefined },
    { method: 'GET', target: '/%', headers: {}, body: undefined },
    { method: 'HEAD', target: '/\u00ec\u00eb', headers: {}, body: undefined },
    { method: 'OPTIONS', target: '/healthz', headers: {}, body: undefined },
    { method: 'OPTIONS', target: '/', headers: {}, body: undefined },
    { method: 'GET', target: '/api/v1/reviews/%ff%fe', headers: { cookie: base.cookie }, body: undefined },
    {
      method: 'POST',
      target: '/api/v1/requests/send',
      headers: json,
      body: '['.repeat(8_000) + ']'.repeat(8_000),
    },
    {
      method: 'POST',
      target: '/api/v1/requests/send',
      headers: json,
      body: '{"__proto__":{"x":1},"channel":"link"}',
    },
    { method: 'POST', target: '/auth/login', headers: json, body: '{"email":{"__proto__":1},"password":[]}' },
    {
      method: 'GET',
      target: '/api/v1/reviews?page=99999999999999999999999',
      headers: { cookie: base.cookie },
      body: undefined,
    },
    {
      method: 'GET',
      target: 'http://evil.example/api/v1/reviews',
      headers: { cookie: base.cookie },
      body: undefined,
    },
  ];
}

/** One fuzz run against one app: its connection, the cases it sent and the statuses they got. */
export type FuzzRun = {
  cases: number;
  statuses: Map<number, number>;
  /**
   * Sends one case to the app at baseUrl (to `target` when the case's own needs filling in) and
   * counts it: the reply, and the label a failure names it by (request, status, start of body).
   */
  send(baseUrl: string, req: FuzzRequest, target?: string): Promise<{ reply: Reply; label: string }>;
  /**
   * The fixed examples (signed in with `cookie`, over `routes`) through `check`, then `numRuns`
   * generated cases from FUZZ_SEED through `checkCase`, stopping at the first failure.
   */
  run<C>(options: {
    cookie: string;
    routes: readonly string[];
    check: (req: FuzzRequest) => Promise<void>;
    cases: fc.Arbitrary<C>;
    checkCase: (c: C) => Promise<void>;
    numRuns: number;
  }): Promise<void>;
  /** Records the cases run and the statuses seen as figures of `app`. */
  recordFigures(app: string): void;
  close(): void;
};

/** A fuzz run on one keep-alive connection, so cases reach the app one after another. */
export function fuzzRun(): FuzzRun {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const run: FuzzRun = {
    cases: 0,
    statuses: new Map(),
    async send(baseUrl, req, target = req.target) {
      const reply = await sendCase(baseUrl, req, agent, target);
      run.cases++;
      run.statuses.set(reply.status, (run.statuses.get(reply.status) ?? 0) + 1);
      return {
        reply,
        label: `${req.method} ${req.target.slice(0, 120)} → ${reply.status} ${reply.text.slice(0, 160)}`,
      };
    },
    async run({ cookie, routes, check, cases, checkCase, numRuns }) {
      for (const example of fixedExamples({ cookie, routes })) await check(example);
      await fc.assert(fc.asyncProperty(cases, checkCase), { numRuns, seed: FUZZ_SEED, endOnFailure: true });
    },
    recordFigures(app) {
      recordFigure({ area: 'fuzz', what: `${app} cases run`, value: run.cases, summary: 'counted' });
      recordFigure({
        area: 'fuzz',
        what: `${app} statuses seen`,
        value: [...run.statuses.keys()].sort((a, b) => a - b).join(' '),
      });
    },
    close: () => agent.destroy(),
  };
  return run;
}
