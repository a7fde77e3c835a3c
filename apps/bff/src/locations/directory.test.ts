import { describe, expect, it } from 'vitest';
import { loadConfig } from '../env.ts';
import { createLocationDirectory, IMPLICIT_SLUG, MAX_CACHED_USERS } from './directory.ts';
import type { LocationStore } from './store.ts';

const config = loadConfig({
  UPSTREAM_URL: 'http://127.0.0.1:9/base',
  UPSTREAM_API_KEY: 'rk_env_key',
  UPSTREAM_ORIGIN: 'https://app.example',
  BUSINESS_NAME: 'Corner Cafe',
});

function fakeStore(rows: { slug: string; upstreamUrl: string | null; origin: string | null }[]) {
  let reads = 0;
  const store = {
    async credentials() {
      reads++;
      return rows.map((r, i) => ({
        ...r,
        name: r.slug.toUpperCase(),
        key: `key-${r.slug}`,
        authScheme: 'x-api-key' as const,
        createdAt: i,
        updatedAt: i,
      }));
    },
    async accessOf(userId: string) {
      return userId === 'limited' ? { all: false as const, slugs: ['b'] } : { all: true as const };
    },
  } as unknown as LocationStore;
  return { store: async () => store, reads: () => reads };
}

describe('location directory', () => {
  it('with nothing stored, is the configured upstream as one implicit location for everyone', async () => {
    const directory = createLocationDirectory({ config, store: fakeStore([]).store });
    const [only] = await directory.forUser('limited');
    expect(only?.slug).toBe(IMPLICIT_SLUG);
    expect(only?.name).toBe('Corner Cafe');
    expect(only?.upstream.key).toBe('rk_env_key');
    expect(only?.upstream.origin).toBe('https://app.example');
  });

  it("fills each location's upstream: its own URL and origin, or the configured ones", async () => {
    const directory = createLocationDirectory({
      config,
      store: fakeStore([
        { slug: 'a', upstreamUrl: null, origin: null },
        { slug: 'b', upstreamUrl: 'http://127.0.0.1:8/x', origin: null },
        { slug: 'c', upstreamUrl: null, origin: 'https://c.example' },
      ]).store,
    });
    const all = await directory.all();
    expect(all.map((l) => [l.slug, l.upstream.url.href, l.upstream.key, l.upstream.origin])).toEqual([
      ['a', 'http://127.0.0.1:9/base', 'key-a', 'https://app.example'],
      ['b', 'http://127.0.0.1:8/x', 'key-b', 'http://127.0.0.1:8'],
      ['c', 'http://127.0.0.1:9/base', 'key-c', 'https://c.example'],
    ]);
    expect((await directory.forUser('limited')).map((l) => l.slug)).toEqual(['b']);
  });

  it('answers from its cache synchronously until it is stale, then reads the store once', async () => {
    let now = 1_000;
    const fake = fakeStore([{ slug: 'a', upstreamUrl: null, origin: null }]);
    const directory = createLocationDirectory({ config, store: fake.store, reloadMs: 100, now: () => now });
    await directory.forUser('u');
    expect(Array.isArray(directory.forUser('u'))).toBe(true);
    expect(fake.reads()).toBe(1);
    now += 101;
    await Promise.all([directory.all(), directory.all(), directory.all()]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.reads()).toBe(2);
  });

  it('keeps at most MAX_CACHED_USERS users’ reach, however many ask', async () => {
    const directory = createLocationDirectory({ config, store: fakeStore([]).store });
    for (let i = 0; i < MAX_CACHED_USERS + 500; i++) await directory.forUser(`user-${i}`);
    expect(directory.cachedUsers()).toBeLessThanOrEqual(MAX_CACHED_USERS);
  });
});
