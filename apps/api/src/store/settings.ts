import type { Db } from './db.ts';

export function settingsStore(db: Db) {
  const get = db.prepare('SELECT value FROM settings WHERE key = ?');
  const insertIfAbsent = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING');
  const set = db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return {
    get(key: string): string | undefined {
      return (get.get(key) as { value: string } | undefined)?.value;
    },
    /** Stores `value` unless the key exists; returns the stored value (first writer wins across processes). */
    getOrInit(key: string, value: () => string): string {
      const existing = this.get(key);
      if (existing !== undefined) return existing;
      insertIfAbsent.run(key, value());
      return this.get(key)!;
    },
    set(key: string, value: string): void {
      set.run(key, value);
    },
  };
}
