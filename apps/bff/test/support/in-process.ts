import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { tempDir } from '../../../../test/support/processes.ts';
import { newApiKey } from '../../../../test/support/stack.ts';
import { loadConfig } from '../../src/env.ts';
import { createLogger } from '../../src/log.ts';
import { createMetrics } from '../../src/metrics.ts';
import { type Bff, createBff, openStores } from '../../src/server.ts';

// The BFF built inside the test process (no child process), for tests that need both of its ways
// in side by side, or its heap: the same createBff the server runs, silent logs, a temporary
// database.

export type Listener = { url: string; close(): Promise<void> };

export async function serve(listener: http.RequestListener): Promise<Listener> {
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type InProcessBff = Bff & { key: string; cleanup(): Promise<void> };

export async function buildBff(upstreamUrl: string, env: Record<string, string> = {}): Promise<InProcessBff> {
  const temp = tempDir('bff-inproc-');
  const key = newApiKey();
  const config = loadConfig({
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_API_KEY: key,
    BFF_DATABASE_PATH: path.join(temp.dir, 'bff.db'),
    WEB_DIST_DIR: path.join(temp.dir, 'no-web-build'),
    UPSTREAM_TIMEOUT_MS: '1500',
    LOG_LEVEL: 'silent',
    // Tests of other things call far faster than a person: each user's share is made too large
    // to reach (its gate and table still run). The share's own tests set it low.
    USER_RATE_LIMIT_PER_MINUTE: '1000000',
    ...env,
  });
  const logs = createLogger('silent');
  const bff = createBff(config, logs, createMetrics(), await openStores(config, randomUUID()));
  return {
    ...bff,
    key,
    async cleanup() {
      await bff.stores.db.close();
      await logs.end();
      temp.cleanup();
    },
  };
}
