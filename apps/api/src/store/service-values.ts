import type { Queryable } from '@review-desk/server/db/types';

export function settingsStore(db: Queryable) {
  const get = db.prepare('SELECT value FROM settings WHERE key = $1');
  const insertIfAbsent = db.prepare(
    'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING',
  );
  const set = db.prepare(
    'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return {
    async get(key: string): Promise<string | undefined> {
      return (await get.get<{ value: string }>(key))?.value;
    },
    /** Stores `value` unless the key exists; returns the stored value (first writer wins across processes). */
    async getOrInit(key: string, value: () => string): Promise<string> {
      const existing = await this.get(key);
      if (existing !== undefined) return existing;
      await insertIfAbsent.run(key, value());
      return (await this.get(key))!;
    },
    async set(key: string, value: string): Promise<void> {
      await set.run(key, value);
    },
  };
}
