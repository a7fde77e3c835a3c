import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/support/processes.ts';
import { type Db, openDatabase } from '../store/db.ts';
import { CACHE_MAX, createSessionStore, type SessionStore } from './sessions.ts';
import { createUserStore } from './users.ts';

// The session cache is keyed by the cookie a caller sends: it must stay bounded whatever is sent.

let temp: ReturnType<typeof tempDir>;
let db: Db;
let sessions: SessionStore;
let userId: string;

beforeEach(async () => {
  temp = tempDir('bff-sessions-');
  db = openDatabase(`${temp.dir}/bff.db`);
  sessions = createSessionStore(db, { idleMs: 3_600_000, absoluteMs: 43_200_000 });
  userId = (
    await createUserStore(db).create({ email: 'a@example.com', role: 'owner', password: 'p'.repeat(12) })
  ).id;
});

afterEach(() => {
  db.close();
  temp.cleanup();
});

describe('the session cache under a flood', () => {
  it('keeps nothing for tokens that name no session, however many', () => {
    for (let i = 0; i < 20_000; i++) {
      expect(sessions.lookup(randomBytes(32).toString('base64url'))).toBeNull();
      sessions.lookup(`not a token ${i}`);
    }
    expect(sessions.cacheSize()).toBe(0);
  });

  it('holds at most CACHE_MAX sessions, and a session pushed out is still found in the database', () => {
    const tokens: string[] = [];
    for (let i = 0; i < CACHE_MAX + 500; i++) {
      const token = sessions.create(userId);
      tokens.push(token);
      expect(sessions.lookup(token)).toMatchObject({ session: { user: { id: userId } } });
    }
    expect(sessions.cacheSize()).toBe(CACHE_MAX);
    expect(sessions.peek(tokens[0]!)).toBeNull();
    expect(sessions.lookup(tokens[0]!)).toMatchObject({ session: { user: { id: userId } } });
  }, 60_000);
});
