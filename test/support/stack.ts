import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Session } from './http.ts';
import { type RunningApp, runCli, startApp, tempDir } from './processes.ts';

// The apps as real processes for system tests: the BFF against any upstream (a fault upstream or
// the real API), and the real API with a business and a key made by its own CLI. Each keeps its
// directory across restarts, so a test can kill a process and start it again on the same files.

export const OWNER = { email: 'owner@example.com', password: 'owner-password-1234' };

export function newApiKey(): string {
  return `rd_live_${randomBytes(32).toString('base64url')}`;
}

/**
 * The BFF's settings for a test: `upstreamUrl` with `key`, its database in `dir` with a first
 * owner, no web build, then `env` over them.
 */
export function bffTestEnv(
  upstreamUrl: string,
  key: string,
  dir: string,
  env: Record<string, string>,
): Record<string, string> {
  return {
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_API_KEY: key,
    BFF_DATABASE_PATH: path.join(dir, 'bff.db'),
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
    WEB_DIST_DIR: path.join(dir, 'no-web-build'),
    // Tests of other things call far faster than a person: each user's share is made too large
    // to reach (its gate and table still run). The share's own tests set it low.
    USER_RATE_LIMIT_PER_MINUTE: '1000000',
    ...env,
  };
}

/** An app process of a system test, on its own folder: restarted on the same settings, or stopped. */
type Running = {
  app: RunningApp;
  readonly url: string;
  dir: string;
  env: Record<string, string>;
  /** Starts the process again on the same files and configuration (after a stop or a kill). */
  restart(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stops the process and removes its folder. */
  cleanup(): Promise<void>;
};

async function startRunning(
  name: 'api' | 'bff',
  env: Record<string, string>,
  temp: ReturnType<typeof tempDir>,
): Promise<Running> {
  const running: Running = {
    app: await startApp(name, { env }),
    get url() {
      return running.app.url;
    },
    dir: temp.dir,
    env,
    async restart() {
      await running.app.stop();
      running.app = await startApp(name, { env });
    },
    stop: (signal) => running.app.stop(signal),
    async cleanup() {
      await running.app.stop();
      temp.cleanup();
    },
  };
  return running;
}

/** A BFF process started for a test: its upstream key, its folder, database and settings. */
export type BffProcess = {
  app: RunningApp;
  url: string;
  key: string;
  dir: string;
  databasePath: string;
  env: Record<string, string>;
};

export type SystemBff = BffProcess &
  Running & {
    session(): Session;
    /** A session signed in as the first owner. */
    owner(): Promise<Session>;
  };

export async function startSystemBff(
  upstreamUrl: string,
  env: Record<string, string> = {},
): Promise<SystemBff> {
  const temp = tempDir('rd-system-bff-');
  const key = env.UPSTREAM_API_KEY ?? newApiKey();
  const fullEnv = bffTestEnv(upstreamUrl, key, temp.dir, {
    UPSTREAM_TIMEOUT_MS: '1000',
    LOG_LEVEL: 'info',
    ...env,
  });
  const bff: SystemBff = Object.assign(await startRunning('bff', fullEnv, temp), {
    key,
    databasePath: path.join(temp.dir, 'bff.db'),
    session() {
      return new Session(bff.app.url);
    },
    async owner() {
      const session = new Session(bff.app.url);
      const reply = await session.login(OWNER.email, OWNER.password);
      if (reply.status !== 200) throw new Error(`owner login failed: ${reply.status} ${reply.text}`);
      return session;
    },
  });
  return bff;
}

/** A dashboard user as an owner adds one (POST /bff/users) and as it signs in. */
export type TestUser = { email: string; password: string; role: 'owner' | 'manager' | 'staff' };

export type AddedUser = TestUser & { id: string };

/** Adds `user` as `owner` does; throws unless it is created. The user with its id. */
export async function addUser(owner: Session, user: TestUser): Promise<AddedUser> {
  const reply = await owner.post('/bff/users', user);
  if (reply.status !== 201) throw new Error(`adding ${user.email}: ${reply.status} ${reply.text}`);
  return { ...user, id: reply.json.data.user.id };
}

export const BUSINESS = { slug: 'harbour', name: 'Harbour Street Coffee' };
export const ALL_SCOPES = 'review_requests:write,reviews:read,analytics:read';

export type SystemApi = Running & {
  databasePath: string;
  /** Creates a key with the API's CLI (`key create`): the key, printed once. */
  createKey(scopes?: string, extra?: string[]): Promise<string>;
  /** The same, with the key's id (for `key revoke <id>`). */
  createKeyWithId(scopes?: string, extra?: string[]): Promise<{ key: string; id: string }>;
  cli(args: string[]): Promise<string>;
};

/** The real API on a temporary database with one business, its outbox served at /dev/outbox.json. */
export async function startSystemApi(env: Record<string, string> = {}): Promise<SystemApi> {
  const temp = tempDir('rd-system-api-');
  const databasePath = path.join(temp.dir, 'api.db');
  const fullEnv: Record<string, string> = {
    DATABASE_PATH: databasePath,
    DEMO_KEY_FILE: path.join(temp.dir, 'demo-api-key'),
    DEV_OUTBOX: '1',
    LOG_LEVEL: 'info',
    ...env,
  };
  const cli = (args: string[]) => runCli('api', args, { env: { DATABASE_PATH: databasePath } });
  if (!fullEnv.SEED_DEMO) {
    await cli([
      'business',
      'create',
      BUSINESS.slug,
      BUSINESS.name,
      '--review-url',
      'https://reviews.example.com/harbour',
    ]);
  }
  const api: SystemApi = Object.assign(await startRunning('api', fullEnv, temp), {
    databasePath,
    cli,
    async createKey(scopes = ALL_SCOPES, extra: string[] = []) {
      return (await api.createKeyWithId(scopes, extra)).key;
    },
    async createKeyWithId(scopes = ALL_SCOPES, extra: string[] = []) {
      const business = fullEnv.SEED_DEMO ? 'demo' : BUSINESS.slug;
      const out = await cli(['key', 'create', '--business', business, '--scopes', scopes, ...extra]);
      const id = /^Created key (\S+)/m.exec(out)?.[1];
      if (!id) throw new Error(`key create printed no id:\n${out}`);
      return { key: out.trim().split('\n').at(-1)!.trim(), id };
    },
  });
  return api;
}

/** Messages in the API's development outbox, optionally only those to one recipient. */
export async function outboxCount(apiUrl: string, to?: string): Promise<number> {
  const query = to ? `?to=${encodeURIComponent(to)}&limit=1000` : '?limit=1000';
  const response = await fetch(`${apiUrl}/dev/outbox.json${query}`);
  const body = (await response.json()) as { data: { messages: unknown[] } };
  return body.data.messages.length;
}

/** Polls until `check` holds (or throws after `ms`). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = 'condition',
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25)); // poll: a look again at the condition
  }
}

/**
 * Calls `call` until it answers other than 200, for at most `limitMs`: the last status, and how
 * long after the start it came (a logout reaching another process, say).
 */
export async function untilRefused(
  call: () => Promise<{ status: number }>,
  limitMs = 3_000,
): Promise<{ status: number; afterMs: number }> {
  const started = Date.now();
  let status = 200;
  while (status === 200 && Date.now() - started < limitMs) status = (await call()).status;
  return { status, afterMs: Date.now() - started };
}
