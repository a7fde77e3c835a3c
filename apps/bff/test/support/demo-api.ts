import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type OutboxMessage, outboxListSchema } from '@review-desk/shared';
import { type RunningApp, startApp, tempDir } from '../../../../test/support/processes.ts';

// The real API as a process, for the BFF suites that stand in front of it: the demo business,
// the development outbox, the demo key written to a file, and no request limit in the way.

export type DemoApi = {
  app: RunningApp;
  url: string;
  databasePath: string;
  keyFile: string;
  /** A BFF's environment that reads the demo key from its file. */
  keyFromFile: { UPSTREAM_API_KEY: string; UPSTREAM_API_KEY_FILE: string };
  demoKey(): string;
  /** The development outbox's messages to one phone number or address. */
  outbox(to: string): Promise<OutboxMessage[]>;
  stop(): Promise<void>;
};

export async function startDemoApi(prefix: string, env: Record<string, string> = {}): Promise<DemoApi> {
  const dir = tempDir(prefix);
  const databasePath = path.join(dir.dir, 'api.db');
  const keyFile = path.join(dir.dir, 'demo-api-key');
  const app = await startApp('api', {
    env: {
      DATABASE_PATH: databasePath,
      SEED_DEMO: '1',
      DEV_OUTBOX: '1',
      DEMO_KEY_FILE: keyFile,
      RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
  });
  return {
    app,
    url: app.url,
    databasePath,
    keyFile,
    keyFromFile: { UPSTREAM_API_KEY: '', UPSTREAM_API_KEY_FILE: keyFile },
    demoKey: () => readFileSync(keyFile, 'utf8').trim(),
    async outbox(to) {
      const response = await fetch(`${app.url}/dev/outbox.json?to=${encodeURIComponent(to)}`);
      return outboxListSchema.parse(((await response.json()) as { data: unknown }).data).messages;
    },
    async stop() {
      await app.stop();
      dir.cleanup();
    },
  };
}
