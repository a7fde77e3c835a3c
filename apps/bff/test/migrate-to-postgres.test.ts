import { createPostgresDatabase } from '@review-desk/server/test-support/databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { runCli } from '../../../test/support/processes.ts';
import { startBff } from './support/bff.ts';

// An installation moves from its SQLite file to PostgreSQL with one command, and keeps everything:
// users and their passwords, the journal (a retry of a finished send is still its replay, never a
// second send), the send history.

const SEND = '/api/v1/requests/send';
const SMS = { customerName: 'Moved Customer', customerPhone: '+14155552671', channel: 'sms' };

let upstream: FakeUpstream;
let database: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  upstream = await startFakeUpstream();
  database = await createPostgresDatabase();
});

afterAll(async () => {
  await upstream?.close();
  await database?.drop();
});

describe('migrate-to-postgres', () => {
  it('copies every row, verifies the counts, refuses a second copy, and the BFF goes on from PostgreSQL', async () => {
    const onSqlite = await startBff(upstream.url);
    const owner = await onSqlite.owner();
    const key = crypto.randomUUID();
    const first = await owner.send(SMS, key);
    expect([200, 201]).toContain(first.status);
    const created = await owner.post('/bff/users', {
      email: 'staff-moved@example.com',
      role: 'staff',
      password: 'staff-password-1',
    });
    expect(created.status).toBe(201);
    await onSqlite.app.stop();

    const env = { BFF_DATABASE_PATH: onSqlite.databasePath, BFF_DATABASE_URL: database.url };
    const out = await runCli('bff', ['migrate-to-postgres'], { env });
    expect(out).toMatch(/^users\s+2 rows$/m);
    expect(out).toMatch(/^sends\s+1 rows$/m);
    expect(out).toMatch(/every count matched/);
    await expect(runCli('bff', ['migrate-to-postgres'], { env })).rejects.toThrow(
      /exited 1.*already holds data/s,
    );

    const onPostgres = await startBff(
      upstream.url,
      { ...onSqlite.env, BFF_DATABASE_URL: database.url },
      { dir: onSqlite.dir, key: onSqlite.key },
    );
    try {
      const again = await onPostgres.owner();
      const staff = onPostgres.client();
      expect((await staff.login('staff-moved@example.com', 'staff-password-1')).status).toBe(200);
      const history = await again.get('/bff/sends?limit=5');
      expect(history.json.data.sends.map((s: { customerName: string }) => s.customerName)).toEqual([
        'Moved Customer',
      ]);
      const sendsBefore = upstream.count(SEND);
      const retry = await again.send(SMS, key);
      expect(retry.status).toBe(first.status);
      expect(retry.json).toEqual(first.json);
      expect(upstream.count(SEND)).toBe(sendsBefore);
    } finally {
      await onPostgres.stop();
      await onSqlite.stop();
    }
  }, 90_000);

  it('says in one line what is missing', async () => {
    await expect(runCli('bff', ['migrate-to-postgres'], { env: {} })).rejects.toThrow(
      /exited 2.*set BFF_DATABASE_URL or pass --to/s,
    );
  });
});
