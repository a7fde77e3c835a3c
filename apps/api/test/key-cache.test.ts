import { describeEngines } from '@review-desk/server/test-support/databases';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBusiness } from '../src/accounts/businesses.ts';
import { createApiKey, generateApiKey, lookupApiKey, revokeApiKey } from '../src/accounts/keys.ts';
import { createStore, type Store } from '../src/store/index.ts';
import { until } from './helpers.ts';
import { cacheClock, countingReads, type Handles, openTwoHandles } from './support/cache-handles.ts';

// The key cache (docs/decisions/0021-api-key-and-settings-cache.md): a key found is trusted for
// up to a second; a change made by this process is seen on its very next call, one made by
// another process at once when this one hears it, within the second when it does not.

const NOW = Date.UTC(2026, 0, 5, 12);

describeEngines('API key cache', (dialect) => {
  let handles: Handles;
  let here: Store;
  let there: Store;
  let reads: () => number;
  const clock = cacheClock();
  let slug = 0;

  beforeAll(async () => {
    handles = await openTwoHandles(dialect);
    const counted = countingReads(handles.a, /FROM api_keys k JOIN businesses/);
    reads = counted.reads;
    here = createStore(counted.db, { cacheClock: clock.now, cacheMax: 20 });
    there = createStore(handles.b);
  });
  afterAll(() => handles?.close());

  /** A new business and one of its keys. */
  async function newKey(): Promise<{ key: string; id: string; businessId: number }> {
    slug += 1;
    const business = await createBusiness(
      there,
      { slug: `shop-${slug}`, name: 'Shop', reviewUrl: null },
      NOW,
    );
    const { key, row } = await createApiKey(there, {
      businessSlug: business.slug,
      scopes: ['reviews:read'],
      now: NOW,
    });
    return { key, id: row.id, businessId: business.id };
  }
  const accepted = async (key: string) => (await lookupApiKey(here, key, NOW)).ok;
  const suspended = async (key: string) => {
    const lookup = await lookupApiKey(here, key, NOW);
    return lookup.ok && lookup.key.business.suspended_at !== null;
  };

  it('reads a key once however often it is used within the second, again after it', async () => {
    const { key } = await newKey();
    const before = reads();
    for (let i = 0; i < 10; i++) expect(await accepted(key)).toBe(true);
    expect(reads() - before).toBe(1);
    clock.advance(1_001);
    expect(await accepted(key)).toBe(true);
    expect(reads() - before).toBe(2);
  });

  it('still compares expiry with the time of each call', async () => {
    slug += 1;
    await createBusiness(there, { slug: `shop-${slug}`, name: 'Shop', reviewUrl: null }, NOW);
    const { key } = await createApiKey(there, {
      businessSlug: `shop-${slug}`,
      scopes: ['reviews:read'],
      expiresInDays: 1,
      now: NOW,
    });
    expect((await lookupApiKey(here, key, NOW)).ok).toBe(true);
    expect((await lookupApiKey(here, key, NOW + 86_400_000)).ok).toBe(false);
  });

  it('refuses a key revoked by this process on the very next call', async () => {
    const { key, id } = await newKey();
    expect(await accepted(key)).toBe(true);
    await revokeApiKey(here, id, NOW);
    expect(await accepted(key)).toBe(false);
  });

  it('refuses a key revoked by another process as soon as the change is heard', async () => {
    const subscription = await here.keys.listen();
    try {
      const { key, id } = await newKey();
      expect(await accepted(key)).toBe(true);
      await revokeApiKey(there, id, NOW);
      // The cache's clock stands still: only the notification can drop the entry.
      await until(async () => !(await accepted(key)));
    } finally {
      await subscription.close();
    }
  });

  it('refuses a key revoked by a process it did not hear within a second', async () => {
    const { key, id } = await newKey();
    expect(await accepted(key)).toBe(true);
    // Not listening: nothing can drop the entry but its age.
    await revokeApiKey(there, id, NOW);
    expect(await accepted(key)).toBe(true); // trusted for up to a second
    clock.advance(1_001);
    expect(await accepted(key)).toBe(false);
  });

  it('sees a business suspended by another process at once when heard, within a second when not', async () => {
    const subscription = await here.keys.listen();
    const heard = await newKey();
    expect(await suspended(heard.key)).toBe(false);
    await there.businesses.setSuspended(heard.businessId, NOW);
    await until(() => suspended(heard.key));
    await subscription.close();

    const unheard = await newKey();
    expect(await suspended(unheard.key)).toBe(false);
    await there.businesses.setSuspended(unheard.businessId, NOW);
    clock.advance(1_001);
    expect(await suspended(unheard.key)).toBe(true);
  });

  it('caches no made-up key, and never more keys than its bound', async () => {
    clock.advance(1_001);
    const { key } = await newKey();
    await accepted(key); // drops the stale entries on the way
    const start = here.keys.cacheSize();
    for (let i = 0; i < 500; i++) expect(await accepted(generateApiKey())).toBe(false);
    expect(here.keys.cacheSize()).toBe(start);
    const keys: string[] = [];
    for (let i = 0; i < 30; i++) keys.push((await newKey()).key);
    for (const each of keys) expect(await accepted(each)).toBe(true);
    expect(here.keys.cacheSize()).toBe(20);
    // The newest stay cached, the oldest made room.
    const before = reads();
    expect(await accepted(keys.at(-1)!)).toBe(true);
    expect(reads()).toBe(before);
    expect(await accepted(keys[0]!)).toBe(true);
    expect(reads()).toBe(before + 1);
  });
});
