import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database, Dialect, Statement } from '@review-desk/server/db/types';
import { createPostgresDatabase } from '@review-desk/server/test-support/databases';
import { openApiDatabase } from '../../src/store/database.ts';

// Two handles on one database, as two processes of the service would hold (on SQLite in one
// process they share its notification bus, like a PostgreSQL server's NOTIFY reaches every
// listener), with the statements of one handle counted.

export type Handles = { a: Database; b: Database; close(): Promise<void> };

export async function openTwoHandles(dialect: Dialect): Promise<Handles> {
  const pg = dialect === 'postgres' ? await createPostgresDatabase() : null;
  const dir = mkdtempSync(path.join(tmpdir(), 'rd-api-cache-'));
  const settings = { databasePath: path.join(dir, 'api.db'), databaseUrl: pg?.url };
  const a = await openApiDatabase(settings);
  const b = await openApiDatabase(settings);
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `db` with a count of the reads (`get`) of the statements whose SQL matches `pattern`. */
export function countingReads(db: Database, pattern: RegExp): { db: Database; reads: () => number } {
  let reads = 0;
  const counted = (statement: Statement): Statement =>
    new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        if (prop !== 'get') return value.bind(target);
        return (...params: unknown[]) => {
          reads += 1;
          return value.apply(target, params);
        };
      },
    });
  const proxy = new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare')
        return (sql: string) => (pattern.test(sql) ? counted(target.prepare(sql)) : target.prepare(sql));
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy, reads: () => reads };
}

/** A clock the caches age on that moves only when told (so only a notification can drop an entry). */
export function cacheClock() {
  let now = 0;
  return {
    now: () => now,
    advance(ms: number): void {
      now += ms;
    },
  };
}
