import path from 'node:path';
import { type RunningApp, startApp, tempDir } from '../../../../test/support/processes.ts';
import { newApiKey, OWNER } from '../../../../test/support/stack.ts';
import { DashboardClient } from './client.ts';

// Starts the real BFF process against an upstream, with a temporary database and a first owner.

export { OWNER } from '../../../../test/support/stack.ts';

export type TestBff = {
  app: RunningApp;
  url: string;
  key: string;
  dir: string;
  databasePath: string;
  env: Record<string, string>;
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
  const databasePath = path.join(temp.dir, 'bff.db');
  const fullEnv = {
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_API_KEY: key,
    BFF_DATABASE_PATH: databasePath,
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
    WEB_DIST_DIR: path.join(temp.dir, 'no-web-build'),
    UPSTREAM_TIMEOUT_MS: '1500',
    // Tests of other things call far faster than a person: each user's share is made too large
    // to reach (its gate and table still run). The share's own tests set it low.
    USER_RATE_LIMIT_PER_MINUTE: '1000000',
    ...env,
  };
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
