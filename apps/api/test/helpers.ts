import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FakeClock } from '@review-desk/server/clock';
import type { Dialect } from '@review-desk/server/db/types';
import { createPostgresDatabase, ENGINES } from '@review-desk/server/test-support/databases';
import { jsonOr } from '@review-desk/server/test-support/json';
import {
  codedErrorEnvelopeSchema,
  ERROR_CODES,
  type ErrorCode,
  outboxListSchema,
  SCOPES,
  type Scope,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createBusiness } from '../src/accounts/businesses.ts';
import { createApiKey } from '../src/accounts/keys.ts';
import { type Config, testConfig } from '../src/env.ts';
import { sha256Hex } from '../src/ids.ts';
import { type RunningApi, startApi } from '../src/server.ts';

// A real server on an ephemeral port over a fresh database (a temporary SQLite file, or a new
// database on the test run's PostgreSQL server), driven over real HTTP.

export { execute, queryAll, queryOne, reviewsWhere } from './support/tables.ts';

/** The engines the store's suites run on, each suite once per engine: sqlite, postgres. */
export { ENGINES };
export type Engine = Dialect;

export type TestDatabaseConfig = {
  /** What the service's configuration needs to open it: the file, or the URL too. */
  config: Pick<Config, 'databasePath'> & Partial<Pick<Config, 'databaseUrl' | 'databasePoolSize'>>;
  /** Deletes the data (after the service is closed). */
  drop(): Promise<void>;
};

/** A fresh, empty database of the engine for one service (SQLite: a file in `dir`). */
export async function testDatabase(engine: Engine, dir: string): Promise<TestDatabaseConfig> {
  const databasePath = path.join(dir, 'api.db');
  if (engine === 'sqlite') return { config: { databasePath }, drop: async () => {} };
  const created = await createPostgresDatabase();
  // A few connections: a test's service runs one request at a time, and many run in one file.
  return { config: { databasePath, databaseUrl: created.url, databasePoolSize: 4 }, drop: created.drop };
}

/** A parsed response body, read by shape in assertions (schemas check it where it matters). */
// biome-ignore lint/suspicious/noExplicitAny: assertions navigate bodies of every endpoint
export type Body = any;

export type TestApi = RunningApi & {
  /**
   * Test clock: starts at the real time; tests move it forward. With a FakeClock given to
   * startTestApi, reads and sets that clock (which scheduled work waits on).
   */
  clock: { now: number };
  dir: string;
  business(slug: string, name?: string, reviewUrl?: string | null): Promise<{ id: number; slug: string }>;
  key(
    businessSlug: string,
    scopes?: Scope[],
    options?: { rateLimitPerMinute?: number; expiresInDays?: number },
  ): Promise<string>;
  keyIdOf(key: string): Promise<string>;
  /** Fetch relative to the server. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
};

export async function startTestApi(
  overrides: Partial<Config> = {},
  options: { engine?: Engine; clock?: FakeClock; webhookCa?: string } = {},
): Promise<TestApi> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rd-api-test-'));
  const engine = options.engine ?? 'sqlite';
  const database = await testDatabase(engine, dir);
  const fake = options.clock;
  const clock = fake
    ? {
        get now() {
          return fake.now();
        },
        set now(ms: number) {
          fake.set(ms);
        },
      }
    : { now: Date.now() };
  const defaults = testConfig();
  const config = testConfig({
    ...database.config,
    demoKeyFile: path.join(dir, 'demo-key'),
    // Google's tokens are sealed with a key of the test's own, never the repository's data folder.
    google: {
      ...defaults.google,
      secrets: { key: randomBytes(32).toString('hex'), file: path.join(dir, 'secrets-key') },
    },
    devOutbox: true,
    // Limiting stays on (per-key limits apply) but the default never gets in a test's way.
    rateLimitPerMinute: 1_000_000,
    ...overrides,
  });
  let api: RunningApi;
  try {
    api = await startApi(config, {
      ...(fake ? { clock: fake } : { now: () => clock.now }),
      ...(options.webhookCa ? { webhookCa: options.webhookCa } : {}),
    });
  } catch (error) {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const store = api.ctx.store;
  if (store.db.dialect !== engine) {
    await api.close();
    throw new Error(`asked for ${engine}, the service opened ${store.db.dialect}`);
  }
  return {
    ...api,
    clock,
    dir,
    async business(slug, name = `Business ${slug}`, reviewUrl = `https://reviews.example.com/${slug}`) {
      return await createBusiness(store, { slug, name, reviewUrl }, clock.now);
    },
    async key(businessSlug, scopes = [...SCOPES], options = {}) {
      return (await createApiKey(store, { businessSlug, scopes, now: clock.now, ...options })).key;
    },
    async keyIdOf(key) {
      return (await store.keys.byHash(sha256Hex(key)))!.key.id;
    },
    fetch(pathname, init) {
      return fetch(`${api.url}${pathname}`, init);
    },
    async stop() {
      await api.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The service the tests of a describe block (or a file) share: started before them, stopped after
 * them. What it returns stands for that service inside the block's hooks and tests only.
 */
export function useTestApi(
  overrides: Partial<Config> = {},
  options: { engine?: Engine; clock?: FakeClock } = {},
) {
  let running: TestApi | undefined;
  beforeAll(async () => {
    running = await startTestApi(overrides, options);
  });
  afterAll(async () => {
    await running?.stop();
    running = undefined;
  });
  return new Proxy({} as TestApi, {
    get(_, property) {
      if (!running) throw new Error('the service runs only during the hooks and tests of its block');
      return Reflect.get(running, property);
    },
  });
}

/**
 * The suite once per engine (describe blocks `sqlite` and `postgres`), each run with its own
 * service started before its tests and stopped after them (useTestApi).
 */
export function describeEachEngine(
  overrides: Partial<Config>,
  suite: (api: TestApi, engine: Engine) => void,
): void {
  describe.each(ENGINES)('%s', (engine) => suite(useTestApi(overrides, { engine }), engine));
}

/** Headers of a well-behaved server-side caller: key, JSON, and the application's Origin. */
export function sendHeaders(
  api: TestApi,
  key: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    'x-api-key': key,
    'content-type': 'application/json',
    origin: api.ctx.site.publicOrigin,
    ...extra,
  };
}

/** A JSON write (POST, PUT) as a well-behaved caller makes it; the answer parsed. */
export async function writeJson(
  api: TestApi,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  pathname: string,
  key: string,
  body: unknown,
  extra: Record<string, string> = {},
) {
  const response = await api.fetch(pathname, {
    method,
    headers: sendHeaders(api, key, extra),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
}

export function send(api: TestApi, key: string, body: unknown, extra: Record<string, string> = {}) {
  return writeJson(api, 'POST', '/api/v1/requests/send', key, body, extra);
}

/** Sends a request and expects it accepted (200). */
export async function sendOk(api: TestApi, key: string, body: unknown, extra: Record<string, string> = {}) {
  const result = await send(api, key, body, extra);
  expect(result.status).toBe(200);
  return result;
}

/** A `both` request to a fresh phone and a fresh address at `emailDomain`. */
export function bothChannels(emailDomain?: string) {
  return { customerPhone: uniquePhone(), customerEmail: uniqueEmail(emailDomain), channel: 'both' };
}

/** The development outbox's messages of one request, newest first. */
export async function outboxFor(api: TestApi, requestId: string) {
  const result = await getJson(api, `/dev/outbox.json?requestId=${encodeURIComponent(requestId)}`);
  return successEnvelopeSchema(outboxListSchema).parse(result.body).data.messages;
}

/** Waits for work the service does after answering (a job, a receipt): polls until `check` holds. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25)); // poll: a look again at the condition
  }
}

export async function getJson(
  api: TestApi,
  pathname: string,
  key?: string,
  headers: Record<string, string> = {},
) {
  const response = await api.fetch(pathname, {
    headers: { ...(key ? { 'x-api-key': key } : {}), ...headers },
  });
  const text = await response.text();
  const body: Body = jsonOr(text, text);
  return { status: response.status, headers: response.headers, body };
}

/**
 * Asserts the failure envelope with a given code (and the code's status), and returns its
 * message. Tests decide on the code; the message is checked only where its words matter.
 */
export function expectFailure(
  result: { status: number; headers: Headers; body: unknown },
  code: ErrorCode,
): string {
  const parsed = codedErrorEnvelopeSchema.parse(result.body);
  expect(parsed.code).toBe(code);
  expect(result.status).toBe(ERROR_CODES[code].status);
  expect(result.headers.get('content-type')).toMatch(/^application\/json/);
  expect(result.headers.get('cache-control')).toBe('no-store');
  expect(JSON.stringify(result.body)).not.toMatch(/at .+\.ts:\d+/); // never a stack
  return parsed.error;
}

let phoneCounter = 0;
/** A fresh valid phone number (UK drama range + US 555-01xx are reserved; vary the tail). */
export function uniquePhone(): string {
  phoneCounter++;
  return `+1415555${String(2000 + (phoneCounter % 7000)).padStart(4, '0')}`;
}
let emailCounter = 0;
export function uniqueEmail(domain = 'example.com'): string {
  emailCounter++;
  return `customer${emailCounter}.${process.pid}@${domain}`;
}
