import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/databases.ts';
import { createSharedCache } from './shared-cache.ts';

// The cache the service keeps keys and settings in: aged, bounded, dropped by the changes it hears,
// and dropped whole when its listening connection was lost (it may have missed a change).

type Change = { id: number };
const isChange = (value: unknown): value is Change =>
  typeof value === 'object' && value !== null && typeof (value as Change).id === 'number';

describe('shared cache', () => {
  let test: TestDatabase;
  let time = 0;
  beforeAll(async () => {
    test = await createTestDatabase('postgres');
  });
  afterAll(() => test.dispose());

  const cacheOn = (channel: string, max = 3) =>
    createSharedCache<number, string, Change>({
      db: test.db,
      channel,
      ttlMs: 1_000,
      max,
      isEvent: isChange,
      drops: (change, _value, key) => key === change.id,
      now: () => time,
    });

  it('trusts an entry for its time, then asks for a new read; the oldest makes room', () => {
    const cache = cacheOn('ages');
    cache.set(1, 'one');
    time += 1_000;
    expect(cache.get(1)).toEqual({ value: 'one' });
    time += 1;
    expect(cache.get(1)).toBeUndefined();
    for (let id = 1; id <= 10; id++) cache.set(id, `#${id}`);
    expect(cache.size()).toBe(3);
    expect([8, 9, 10].map((id) => cache.get(id)?.value)).toEqual(['#8', '#9', '#10']);
  });

  it('drops what a change names, ignores anything else on its channel', async () => {
    const cache = cacheOn('changes');
    const subscription = await cache.listen();
    cache.set(1, 'one');
    cache.set(2, 'two');
    await test.db.notify('changes', 'not json');
    await test.db.notify('changes', JSON.stringify({ id: 'one' }));
    await test.db.notify('changes', JSON.stringify({ id: 1 }));
    await expect.poll(() => cache.get(1)).toBeUndefined();
    expect(cache.get(2)).toEqual({ value: 'two' });
    await subscription.close();
  });

  it('drops everything once its listening connection is back after a loss', async () => {
    const cache = cacheOn('lost');
    const subscription = await cache.listen();
    cache.set(1, 'one');
    const admin = new pg.Client(test.url);
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE '%(listener)' AND datname = current_database()`,
    );
    await admin.end();
    await expect.poll(() => cache.size(), { timeout: 5_000 }).toBe(0);
    await subscription.close();
  });
});
