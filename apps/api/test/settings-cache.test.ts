import { describeEngines } from '@review-desk/server/test-support/databases';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBusiness } from '../src/accounts/businesses.ts';
import { createSettingsService } from '../src/settings/index.ts';
import { createSettingsStore } from '../src/settings/store.ts';
import { createStore } from '../src/store/index.ts';
import { until } from './helpers.ts';
import { cacheClock, countingReads, type Handles, openTwoHandles } from './support/cache-handles.ts';

// The settings cache (docs/decisions/0021-api-key-and-settings-cache.md): a send reads its
// business's settings at most once a second; a change saved by this process is used by its very
// next send, one saved by another process at once when heard, within the second when not.

const NOW = Date.UTC(2026, 0, 5, 12);

describeEngines('settings cache', (dialect) => {
  let handles: Handles;
  const clock = cacheClock();
  let slug = 0;

  beforeAll(async () => {
    handles = await openTwoHandles(dialect);
  });
  afterAll(() => handles?.close());

  /** The settings service of one process over `db`, as server.ts builds it. */
  function serviceOver(db: Handles['a']) {
    const table = createSettingsStore(db, { cacheClock: clock.now, cacheMax: 20 });
    const store = createStore(db);
    const service = createSettingsService({
      settings: async () => table,
      store,
      defaults: { quietHours: null, timeZone: 'UTC', reminderAfterDays: 3 },
      publicOrigin: () => 'http://127.0.0.1:24001',
      now: () => NOW,
    });
    return { table, store, service };
  }
  /** What a send reads: the business's settings, its row coming with the key. */
  const smsTemplateOf = async (process: ReturnType<typeof serviceOver>, businessId: number) =>
    (await process.service.settingsOf(businessId, { review_url: null })).smsTemplate;
  const words = (n: number) => `Thanks ${n}! {review_link}`;

  async function newBusiness(): Promise<number> {
    slug += 1;
    const store = createStore(handles.b);
    return (await createBusiness(store, { slug: `shop-${slug}`, name: 'Shop', reviewUrl: null }, NOW)).id;
  }

  it('reads a business’s settings once however many sends within the second, again after it', async () => {
    const counted = countingReads(handles.a, /FROM business_settings WHERE/);
    const here = serviceOver(counted.db);
    const businessId = await newBusiness();
    for (let i = 0; i < 10; i++) await smsTemplateOf(here, businessId);
    expect(counted.reads()).toBe(1);
    clock.advance(1_001);
    await smsTemplateOf(here, businessId);
    expect(counted.reads()).toBe(2);
  });

  it('a held send or a reminder reads its words and hours from the cache, without the business row', async () => {
    const counted = countingReads(handles.a, /FROM business(es|_settings) WHERE/);
    const here = serviceOver(counted.db);
    const businessId = await newBusiness();
    for (let i = 0; i < 5; i++) {
      await here.service.templatesFor(businessId);
      await here.service.quietHoursFor(businessId);
    }
    expect(counted.reads()).toBe(1);
  });

  it('a change saved by this process is used by its very next send', async () => {
    const here = serviceOver(handles.a);
    const businessId = await newBusiness();
    await smsTemplateOf(here, businessId);
    await here.service.update(businessId, { smsTemplate: words(1) });
    expect(await smsTemplateOf(here, businessId)).toBe(words(1));
  });

  it('a change saved by another process is used at once when heard, within a second when not', async () => {
    const here = serviceOver(handles.a);
    const there = serviceOver(handles.b);
    const businessId = await newBusiness();
    const subscription = await here.service.listen();
    try {
      await smsTemplateOf(here, businessId);
      await there.service.update(businessId, { smsTemplate: words(2) });
      // The cache's clock stands still: only the notification can drop the entry.
      await until(async () => (await smsTemplateOf(here, businessId)) === words(2));
    } finally {
      await subscription.close();
    }
    // Not listening any more: nothing can drop the entry but its age.
    await there.service.update(businessId, { smsTemplate: words(3) });
    expect(await smsTemplateOf(here, businessId)).toBe(words(2)); // trusted for up to a second
    clock.advance(1_001);
    expect(await smsTemplateOf(here, businessId)).toBe(words(3));
  });

  it('never keeps more businesses than its bound', async () => {
    const here = serviceOver(handles.a);
    for (let businessId = 1; businessId <= 500; businessId++) await here.table.get(businessId);
    expect(here.table.cacheSize()).toBe(20);
  });
});
