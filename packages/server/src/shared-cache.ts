import type { Database, Subscription } from './db/types.ts';

// A cache of database rows that every process on the database keeps in step: an entry is trusted
// for at most `ttlMs`, at most `max` entries are kept (the oldest goes first), and a change drops
// the entries it touches at once in the process that made it and, through the database's
// notifications (PostgreSQL NOTIFY; on SQLite the in-process bus), in every process that listens.
// A process that did not hear (another process on SQLite, a lost listening connection) sees the
// change within `ttlMs` all the same.

export type SharedCacheOptions<K, V, E> = {
  db: Pick<Database, 'notify' | 'listen'>;
  /** The notification channel the changes go out on. */
  channel: string;
  ttlMs: number;
  max: number;
  /** Tells a change from anything else on the channel. */
  isEvent: (value: unknown) => value is E;
  /** Whether `event` makes the cached `value` (under `key`) stale. */
  drops: (event: E, value: V, key: K) => boolean;
  /** The clock entries age on (ms); a monotonic one by default. */
  now?: () => number;
};

type Entry<V> = { value: V; at: number };

/** What a store built on the cache lets its tests set: a smaller bound, a clock of their own. */
export type CacheOverrides = { cacheMax?: number; cacheClock?: () => number };

export type SharedCache<K, V, E> = ReturnType<typeof createSharedCache<K, V, E>>;

export function createSharedCache<K, V, E>(options: SharedCacheOptions<K, V, E>) {
  const { db, channel, ttlMs, max, isEvent, drops } = options;
  const now = options.now ?? (() => performance.now());
  const entries = new Map<K, Entry<V>>();

  /** A payload on the channel as a change; anything else (another version's message) is ignored. */
  const parse = (payload: string): E | undefined => {
    try {
      const value: unknown = JSON.parse(payload);
      return isEvent(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };
  const forget = (event: E) => {
    for (const [key, entry] of entries) if (drops(event, entry.value, key)) entries.delete(key);
  };

  return {
    /** The value cached under `key` if it is fresh; undefined means "read the database". */
    get(key: K): { value: V } | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (now() - entry.at > ttlMs) {
        entries.delete(key);
        return undefined;
      }
      return { value: entry.value };
    },

    /** Keeps `value` as just read; the oldest entry makes room when the cache is full. */
    set(key: K, value: V): void {
      entries.delete(key);
      while (entries.size >= max) entries.delete(entries.keys().next().value as K);
      entries.set(key, { value, at: now() });
    },

    /**
     * A change was written: drops what it touches here, then tells every other process. Inside a
     * transaction the notification goes out when it commits, and this process hears it too,
     * dropping whatever a concurrent read cached before the commit.
     */
    async changed(event: E): Promise<void> {
      forget(event);
      await db.notify(channel, JSON.stringify(event));
    },

    /** Hears the changes of every process; a lost listening connection drops the whole cache. */
    listen(): Promise<Subscription> {
      const onMessage = (payload: string) => {
        const event = parse(payload);
        if (event !== undefined) forget(event);
      };
      return db.listen(channel, onMessage, { onReconnect: () => entries.clear() });
    },

    /** How many entries are kept (for the bound's test). */
    size: () => entries.size,
  };
}
