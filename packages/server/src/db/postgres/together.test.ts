import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test-support/databases.ts';
import type { Transaction } from '../types.ts';

// transactionTogether on PostgreSQL: callers issued together share one transaction and COMMIT;
// one refused by a statement leaves nothing and costs the others nothing.
describe('PostgreSQL transactions issued together', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('postgres');
    await test.db.exec(`CREATE TABLE entries (name text PRIMARY KEY, n integer NOT NULL);
      CREATE FUNCTION refuse(reason text) RETURNS integer LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION USING ERRCODE = 'RD001', MESSAGE = reason; END $$;`);
  });
  beforeEach(() => test.db.exec('DELETE FROM entries'));
  afterAll(() => test.dispose());

  /** Inserts `name` and answers its transaction's id; refuses when `refused`. */
  const member =
    (name: string, refused = false) =>
    (tx: Transaction) =>
      Promise.all([
        tx.run('INSERT INTO entries (name, n) VALUES ($1, 1)', name),
        refused ? tx.get("SELECT refuse('no') FROM entries WHERE name = $1", name) : undefined,
        tx.get<{ id: string }>('SELECT txid_current()::text AS id'),
      ]).then(([, , row]) => row!.id);
  const names = async () =>
    (await test.db.all<{ name: string }>('SELECT name FROM entries ORDER BY name')).map((r) => r.name);

  it('shares one transaction among callers issued in one turn, and commits them all', async () => {
    const ids = await Promise.all(['a', 'b', 'c', 'd'].map((n) => test.db.transactionTogether(member(n))));
    expect(new Set(ids).size).toBe(1);
    expect(await names()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a caller refused by a statement leaves nothing; the others run again alone and commit', async () => {
    const results = await Promise.allSettled(
      [member('a'), member('b', true), member('c')].map((fn) => test.db.transactionTogether(fn)),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'RD001', message: 'no' });
    // Alone, each in a transaction of its own.
    const ids = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(new Set(ids).size).toBe(2);
    expect(await names()).toEqual(['a', 'c']);
  });

  it('refuses a statement issued after its first await, instead of running it outside the transaction', async () => {
    const late = test.db.transactionTogether(async (tx) => {
      await tx.run('INSERT INTO entries (name, n) VALUES ($1, 1)', 'first');
      await test.db.run('INSERT INTO entries (name, n) VALUES ($1, 1)', 'late');
    });
    await expect(late).rejects.toThrow(/after its transaction’s COMMIT/);
    expect(await names()).toEqual(['first']);
  });

  it('takes the callers’ locks before their statements, so a caller waits for a holder of its key', async () => {
    const order: string[] = [];
    const locked = Promise.withResolvers<void>();
    const queued = Promise.withResolvers<void>();
    const holder = test.db.transaction(async (tx) => {
      await tx.lock('contact', 'x');
      locked.resolve();
      await queued.promise;
      await tx.run('INSERT INTO entries (name, n) VALUES ($1, 1)', 'holder');
      order.push('holder');
    });
    await locked.promise;
    const waiter = test.db
      .transactionTogether(member('waiter'), [{ namespace: 'contact', key: 'x' }])
      .then(() => order.push('waiter'));
    // The holder goes on once the waiter's lock is waiting for it, as the server says.
    const waiting = async () =>
      Number(
        (
          await test.db.get<{ n: number }>(
            "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          )
        )?.n,
      ) > 0;
    for (let i = 0; i < 500 && !(await waiting()); i++) await new Promise((r) => setTimeout(r, 10)); // poll: the server's locks
    queued.resolve();
    await Promise.all([holder, waiter]);
    expect(order).toEqual(['holder', 'waiter']);
  });

  it('inside a transaction, joins it', async () => {
    const ids = await test.db.transaction(async (tx) => {
      const own = await tx.get<{ id: string }>('SELECT txid_current()::text AS id');
      const joined = await test.db.transactionTogether(member('inner'));
      return [own!.id, joined];
    });
    expect(ids[0]).toBe(ids[1]);
  });
});
