import { randomBytes } from 'node:crypto';
import { openDatabase } from '@review-desk/server/db/open';
import type { Database } from '@review-desk/server/db/types';
import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { beforeEach, describe, expect, it } from 'vitest';
import { ALL_BFF_MIGRATIONS } from '../store/database.ts';
import { CACHE_MAX, createSessionStore, type SessionStore } from './sessions.ts';
import { createUserStore } from './users.ts';

const LIMITS = { idleMs: 3_600_000, absoluteMs: 43_200_000 };

describeEngines('sessions', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: ALL_BFF_MIGRATIONS });
  let userId: string;

  beforeEach(async () => {
    const { db } = database();
    await db.exec('DELETE FROM sessions; DELETE FROM users;');
    userId = (
      await createUserStore(db).create({ email: 'a@example.com', role: 'owner', password: 'p'.repeat(12) })
    ).id;
  });

  // The session cache is keyed by the cookie a caller sends: it must stay bounded whatever is sent.
  describe('the session cache under a flood', () => {
    it('keeps nothing for tokens that name no session, however many', async () => {
      const sessions = createSessionStore(database().db, LIMITS);
      for (let i = 0; i < 2_000; i++) {
        expect(await sessions.lookup(randomBytes(32).toString('base64url'))).toBeNull();
        await sessions.lookup(`not a token ${i}`);
      }
      expect(sessions.cacheSize()).toBe(0);
    }, 60_000);

    it('holds at most CACHE_MAX sessions, and a session pushed out is still found in the database', async () => {
      const sessions = createSessionStore(database().db, LIMITS);
      const tokens: string[] = [];
      for (let i = 0; i < CACHE_MAX + 500; i++) {
        const token = await sessions.create(userId);
        tokens.push(token);
        expect(await sessions.lookup(token)).toMatchObject({ session: { user: { id: userId } } });
      }
      expect(sessions.cacheSize()).toBe(CACHE_MAX);
      expect(sessions.peek(tokens[0]!)).toBeNull();
      expect(await sessions.lookup(tokens[0]!)).toMatchObject({ session: { user: { id: userId } } });
    }, 120_000);
  });

  // Two handles on one database are two replicas (PostgreSQL) or two workers (SQLite): a logout,
  // a role change or a removal on one must reach the other's cache, not wait for its next read.
  describe('across processes', () => {
    /** Runs `check` with a store on each of two handles, `b` listening for what `a` changes. */
    const acrossHandles = async (check: (a: SessionStore, b: SessionStore) => Promise<void>) => {
      const other: Database = await openDatabase({ url: database().url });
      try {
        const a = createSessionStore(database().db, LIMITS);
        const b = createSessionStore(other, LIMITS);
        const listening = await b.listen();
        await check(a, b);
        await listening.close();
      } finally {
        await other.close();
      }
    };

    it('a logout on one is refused on the other at once, though the other had the session cached', async () => {
      await acrossHandles(async (a, b) => {
        const token = await a.create(userId);
        expect(await b.lookup(token)).toMatchObject({ session: { user: { id: userId } } });
        expect(b.peek(token)).not.toBeNull();
        const started = Date.now();
        await a.destroy(token);
        await expect.poll(() => b.peek(token), { interval: 5, timeout: 1_000 }).toBeNull();
        const heardAfterMs = Date.now() - started;
        expect(heardAfterMs).toBeLessThan(1_000);
        expect(await b.lookup(token)).toBeNull();
      });
    });

    it('a role change or removal on one is read again by the other', async () => {
      await acrossHandles(async (a, b) => {
        const token = await a.create(userId);
        await b.lookup(token);
        const users = createUserStore(database().db);
        const staff = await users.create({ email: 'b@example.com', role: 'owner', password: 'p'.repeat(12) });
        await users.update(userId, { role: 'manager' });
        await a.userChanged(userId);
        await expect.poll(() => b.peek(token), { interval: 5, timeout: 1_000 }).toBeNull();
        expect(await b.lookup(token)).toMatchObject({ session: { user: { role: 'manager' } } });
        await users.remove(userId);
        await a.userChanged(userId);
        await expect.poll(() => b.peek(token), { interval: 5, timeout: 1_000 }).toBeNull();
        expect(await b.lookup(token)).toBeNull();
        await users.remove(staff.id).catch(() => {});
      });
    });
  });
});
