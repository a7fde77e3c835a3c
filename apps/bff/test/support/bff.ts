import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../../test/support/fault-upstream.ts';
import { startApp, tempDir } from '../../../../test/support/processes.ts';
import { type BffProcess, bffTestEnv, newApiKey, OWNER } from '../../../../test/support/stack.ts';
import { DashboardClient } from './client.ts';

// Starts the real BFF process against an upstream, with a temporary database and a first owner.

export { OWNER } from '../../../../test/support/stack.ts';

export type TestBff = BffProcess & {
  client(): DashboardClient;
  /** A client signed in as the first owner. */
  owner(): Promise<DashboardClient>;
  stop(): Promise<void>;
};

export async function startBff(
  upstreamUrl: string,
  env: Record<string, string> = {},
  reuse?: { dir?: string; key?: string },
): Promise<TestBff> {
  const temp = reuse?.dir ? { dir: reuse.dir, cleanup: () => {} } : tempDir('bff-test-');
  const key = reuse?.key ?? newApiKey();
  const fullEnv = bffTestEnv(upstreamUrl, key, temp.dir, { UPSTREAM_TIMEOUT_MS: '1500', ...env });
  const databasePath = path.join(temp.dir, 'bff.db');
  const app = await startApp('bff', { env: fullEnv });
  return {
    app,
    url: app.url,
    key,
    dir: temp.dir,
    databasePath,
    env: fullEnv,
    client: () => new DashboardClient(app.url),
    async owner() {
      const client = new DashboardClient(app.url);
      const reply = await client.login(OWNER.email, OWNER.password);
      if (reply.status !== 200) throw new Error(`owner login failed: ${reply.status} ${reply.text}`);
      return client;
    },
    async stop() {
      await app.stop();
      if (!reuse?.dir) temp.cleanup();
    },
  };
}

export type BffStack = { upstream: FakeUpstream; bff: TestBff; owner: DashboardClient };

/**
 * A fake upstream and a BFF in front of it (with `env`) for the tests of one file: started
 * before them with the first owner signed in, handed to `ready`, and stopped after them.
 */
export function useBffOnFakeUpstream(ready: (stack: BffStack) => void, env: Record<string, string> = {}) {
  let upstream: FakeUpstream | undefined;
  let bff: TestBff | undefined;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    bff = await startBff(upstream.url, env);
    ready({ upstream, bff, owner: await bff.owner() });
  });
  afterAll(async () => {
    await bff?.stop();
    await upstream?.close();
  });
}

/** The address of an upstream that has gone away: a port that was just listening, now closed. */
export async function deadUpstreamUrl(): Promise<string> {
  const dead = await startFakeUpstream();
  await dead.close();
  return dead.url;
}

/** The owner adds `user` (201); a client signed in as them. */
export async function addUser(
  bff: TestBff,
  owner: DashboardClient,
  user: { email: string; password: string; role: string },
): Promise<DashboardClient> {
  const created = await owner.post('/bff/users', user);
  expect(created.status).toBe(201);
  const client = bff.client();
  expect((await client.login(user.email, user.password)).status).toBe(200);
  return client;
}
