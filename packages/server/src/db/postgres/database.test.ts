import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test-support/databases.ts';
import { StartupError } from '../../startup-error.ts';
import { openPostgres } from './database.ts';
import { redactUrl } from './session.ts';
import { coalesceWrites } from './writes.ts';

describe('PostgreSQL executor', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('postgres');
    await test.db.exec(`CREATE TABLE accounts (id integer PRIMARY KEY, balance integer NOT NULL);
      INSERT INTO accounts VALUES (1, 100), (2, 100);`);
  });
  afterAll(() => test.dispose());

  it('runs a transaction again after a deadlock, so both transfers land', async () => {
    const { db } = test;
    let attempts = 0;
    const barrier = Promise.withResolvers<void>();
    let locked = 0;
    const transfer = (from: number, to: number) =>
      db.transaction(async (tx) => {
        attempts++;
        await tx.run('UPDATE accounts SET balance = balance - 10 WHERE id = $1', from);
        // Both hold their first row before either asks for its second: a deadlock, once.
        if (++locked === 2) barrier.resolve();
        await barrier.promise;
        await tx.run('UPDATE accounts SET balance = balance + 10 WHERE id = $1', to);
      });
    await Promise.all([transfer(1, 2), transfer(2, 1)]);
    expect(attempts).toBe(3);
    expect(await db.all('SELECT id, balance FROM accounts ORDER BY id')).toEqual([
      { id: 1, balance: 100 },
      { id: 2, balance: 100 },
    ]);
  });

  it('sends what one turn asks of a connection in one socket write, and the answers stay in order', async () => {
    const client = new pg.Client({ connectionString: test.url, pipeline: true });
    await client.connect();
    try {
      coalesceWrites(client);
      const socket = (client as unknown as { connection: { stream: import('node:net').Socket } }).connection
        .stream;
      let writes = 0;
      const count = <T extends (...args: never[]) => unknown>(fn: T) =>
        ((...args: Parameters<T>) => {
          writes++;
          return fn.apply(socket, args);
        }) as T;
      socket._write = count(socket._write);
      socket._writev = count(socket._writev!);
      // Three statements (each five protocol messages) issued in one turn.
      const answers = await Promise.all([
        client.query({ text: 'SELECT $1::int AS n', values: [1] }),
        client.query({ text: 'SELECT $1::int AS n', values: [2] }),
        client.query({ text: 'SELECT $1::int AS n', values: [3] }),
      ]);
      expect(answers.map((a) => a.rows[0].n)).toEqual([1, 2, 3]);
      expect(writes).toBe(1);
    } finally {
      await client.end();
    }
  });

  it('runs a paged statement on its generic plan from the first execution, not planning it again per call', async () => {
    const sql = 'SELECT id FROM accounts ORDER BY id LIMIT $1 OFFSET $2';
    // One transaction, so every execution and the count are on one connection.
    const plans = await test.db.transaction(async (tx) => {
      for (let offset = 0; offset < 8; offset++) await tx.prepare(sql).all(1, offset % 2);
      return tx.get<{ generic_plans: number; custom_plans: number }>(
        'SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1',
        sql,
      );
    });
    // By default PostgreSQL makes a custom plan for at least the first five executions.
    expect(plans).toEqual({ generic_plans: 8, custom_plans: 0 });
  });

  it('reads a bigint past 2^53 as a bigint rather than a rounded number', async () => {
    expect(await test.db.get('SELECT 9007199254740993::bigint AS v')).toEqual({ v: 9007199254740993n });
  });

  it('hears notifications again after its listening connection is cut, and says it may have missed some', async () => {
    const { db } = test;
    const received: string[] = [];
    let reconnects = 0;
    const subscription = await db.listen('logout', (payload) => received.push(payload), {
      onReconnect: () => reconnects++,
    });
    await db.notify('logout', 'before');
    await expect.poll(() => received).toEqual(['before']);
    const admin = new pg.Client(test.url);
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE '%(listener)' AND datname = current_database()`,
    );
    await admin.end();
    await expect.poll(() => reconnects, { timeout: 5_000 }).toBe(1);
    await db.notify('logout', 'after');
    await expect.poll(() => received).toEqual(['before', 'after']);
    await subscription.close();
  });

  it('refuses to start with one plain line naming the server and the setting, without the password', async () => {
    const url = 'postgres://rd:secret-pw@127.0.0.1:1/none';
    const error = await openPostgres({ url, variable: 'DATABASE_URL', startupWaitMs: 0 }).catch((e) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect(error.message).toMatch(
      /^Cannot connect to PostgreSQL at postgres:\/\/rd:\*\*\*@127\.0\.0\.1:1\/none \(DATABASE_URL\)/,
    );
    expect(error.message).not.toContain('secret-pw');
    expect(error.message).not.toContain('\n');
    expect(redactUrl('postgres://a@h/db')).toBe('postgres://a@h/db');
  });
});
