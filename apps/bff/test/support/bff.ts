import path from 'node:path';
import { type RunningApp, startApp, tempDir } from '../../../../test/support/processes.ts';
import { bffTestEnv, newApiKey, OWNER } from '../../../../test/support/stack.ts';
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
