import { readdirSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp, tempDir } from '../../../test/support/processes.ts';

// What stops the service before it serves, and how it says so: one plain line naming what to
// change (no stack trace, no JSON log line), exit code 1. And what it creates: private files.

const tmp = tempDir('rd-api-startup-');
afterAll(() => tmp.cleanup());
let n = 0;
const env = () => ({ DATABASE_PATH: path.join(tmp.dir, `run-${++n}`, 'api.db'), SEED_DEMO: '0' });

/** The lines a start that failed wrote, from startApp's error. */
async function refusedStart(extra: Record<string, string>): Promise<string[]> {
  const error = await startApp('api', { env: { ...env(), ...extra } }).then(
    (app) => {
      void app.stop();
      throw new Error(`started at ${app.url}, expected a refusal`);
    },
    (e: Error) => e,
  );
  expect(error.message).toMatch(/^api exited \(1\) before listening:\n/);
  return error.message.split('\n').slice(1);
}

async function holdPort(): Promise<{ port: number; close(): void }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

describe('a taken port', () => {
  it('chosen with PORT, stops the start with one plain line naming the port and the variable', async () => {
    const held = await holdPort();
    try {
      const lines = await refusedStart({ PORT: String(held.port) });
      expect(lines).toEqual([
        `Port ${held.port} is in use (PORT=${held.port}): stop what uses it, or set PORT to another port.`,
      ]);
    } finally {
      held.close();
    }
  });

  it('given as a preference (the default’s form, PORT=<n>+), moves on and reports the URL really served', async () => {
    const held = await holdPort();
    try {
      const app = await startApp('api', { env: { ...env(), PORT: `${held.port}+` } });
      try {
        const served = Number(new URL(app.url).port);
        expect(served).toBeGreaterThan(held.port);
        expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
        expect(app.logs.join('\n')).toContain(`port ${held.port} is in use; serving on ${served}`);
      } finally {
        await app.stop();
      }
    } finally {
      held.close();
    }
  });
});

describe('a database written by a newer version', () => {
  it('stops the start with one plain line naming the file, the variable and both schema versions', async () => {
    const settings = env();
    // A first start makes the database; then a migration this version does not know is recorded.
    const app = await startApp('api', { env: settings });
    await app.stop();
    const db = new DatabaseSync(settings.DATABASE_PATH);
    db.prepare(
      `INSERT INTO schema_migrations (component, version, name, applied_at) VALUES ('api', 999, '999-future.sql', '2030-01-01')`,
    ).run();
    db.close();
    const lines = await refusedStart({ DATABASE_PATH: settings.DATABASE_PATH });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^The database .*api\.db \(DATABASE_PATH\) was written by a newer version of Review Desk \(schema 999, this version knows up to \d+; api tables\)\. Run that version or a newer one, or restore a backup made before the upgrade\.$/,
    );
  });
});

describe('the data folder', () => {
  it('that cannot be used stops the start with one plain line naming it and the variable', async () => {
    const blocker = path.join(tmp.dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const lines = await refusedStart({ DATABASE_PATH: path.join(blocker, 'data', 'api.db') });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^Cannot use the data folder ${path.join(blocker, 'data')} \\(DATABASE_PATH\\): E[A-Z]+\\.`),
    );
  });

  it('is created readable by this user only, with private database, WAL, key files', async () => {
    const dir = path.join(tmp.dir, 'private', 'data');
    const app = await startApp('api', {
      env: {
        DATABASE_PATH: path.join(dir, 'api.db'),
        DEMO_KEY_FILE: path.join(dir, 'keys', 'key'),
        SEED_DEMO: '1',
      },
    });
    try {
      const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
      expect(mode(dir)).toBe('700');
      expect(mode(path.join(dir, 'keys'))).toBe('700');
      expect(mode(path.join(dir, 'keys', 'key'))).toBe('600');
      const files = readdirSync(dir).filter((f) => f.startsWith('api.db'));
      expect(files).toEqual(expect.arrayContaining(['api.db', 'api.db-wal', 'api.db-shm']));
      for (const file of files) expect([file, mode(path.join(dir, file))]).toEqual([file, '600']);
    } finally {
      await app.stop();
    }
  });
});

describe('the dev outbox', () => {
  it('is refused in production with one line, and never on by default', async () => {
    expect(await refusedStart({ DEV_OUTBOX: '1', NODE_ENV: 'production' })).toEqual([
      'Invalid configuration: DEV_OUTBOX must be off when NODE_ENV=production (it lists customers’ contacts)',
    ]);
    const app = await startApp('api', { env: { ...env(), NODE_ENV: 'production' } });
    try {
      expect((await fetch(`${app.url}/dev/outbox.json`)).status).toBe(404);
    } finally {
      await app.stop();
    }
  });
});
