import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '@review-desk/shared';
import type { Db } from '../store/db.ts';

// Server-side sessions in SQLite (shared by every worker process). The browser holds a random
// 256-bit token; the table holds its SHA-256. Expiry: idle (no request for idleMs) and absolute
// (createdAt + absoluteMs), whichever comes first. Logout deletes the row, so the token is dead
// everywhere at once.

export type SessionUser = { id: string; email: string; role: Role };
/** A change other processes must apply to their session caches at once. */
export type SessionEvent = { kind: 'token'; idHash: string } | { kind: 'user'; userId: string };
export type Session = { user: SessionUser; createdAt: number };
export type Lookup = { session: Session } | { expired: true } | null;

type Row = {
  user_id: string;
  email: string;
  role: Role;
  created_at: number;
  last_seen_at: number;
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Tokens are 43 base64url characters; anything else is not worth a database lookup. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

type Cached = { idHash: string; session: Session; lastSeen: number; checkedAt: number };

/**
 * A session read from the database is trusted for up to CACHE_MS before it is read again, so a
 * busy dashboard does not query SQLite on every call. Logout, password changes, role changes and
 * removals drop the entry at once in this process and, through `publish`, in every other worker;
 * only a change made by the CLI (another process) may take up to CACHE_MS to be seen.
 */
const CACHE_MS = 1_000;
/** Only sessions found in the database are cached (a made-up token never is), at most this many. */
export const CACHE_MAX = 10_000;

export function createSessionStore(
  db: Db,
  limits: { idleMs: number; absoluteMs: number },
  publish: (event: SessionEvent) => void = () => {},
) {
  const insert = db.prepare(
    'INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)',
  );
  const select = db.prepare(
    `SELECT s.user_id, s.created_at, s.last_seen_at, u.email, u.role
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id_hash = ?`,
  );
  const touch = db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?');
  const remove = db.prepare('DELETE FROM sessions WHERE id_hash = ?');
  const removeForUser = db.prepare('DELETE FROM sessions WHERE user_id = ? AND id_hash <> ?');
  const sweep = db.prepare('DELETE FROM sessions WHERE last_seen_at < ? OR created_at < ?');

  // Writing last_seen_at on every request would turn each read into a write; refreshing it at
  // most every quarter of the idle window (≤ 1 min) keeps idle expiry accurate to that margin.
  const touchEveryMs = Math.min(60_000, Math.max(250, Math.floor(limits.idleMs / 4)));
  const cache = new Map<string, Cached>();

  const forget = (event: SessionEvent) => {
    for (const [token, entry] of cache) {
      if (event.kind === 'token' ? entry.idHash === event.idHash : entry.session.user.id === event.userId) {
        cache.delete(token);
      }
    }
  };

  function fromCache(token: string, now: number): Lookup | undefined {
    const hit = cache.get(token);
    if (!hit || now - hit.checkedAt > CACHE_MS) return undefined;
    // Close to a limit, or past it: let the database decide (another worker may have seen it later).
    if (
      now - hit.lastSeen > limits.idleMs - touchEveryMs ||
      now - hit.session.createdAt > limits.absoluteMs
    ) {
      return undefined;
    }
    if (now - hit.lastSeen > touchEveryMs) {
      touch.run(now, hit.idHash);
      hit.lastSeen = now;
    }
    return { session: hit.session };
  }

  return {
    create(userId: string, now = Date.now()): string {
      const token = randomBytes(32).toString('base64url');
      insert.run(hashToken(token), userId, now, now);
      return token;
    },

    /** The session if this process has it cached and fresh; null means "ask lookup()". */
    peek(token: string, now = Date.now()): Session | null {
      const cached = fromCache(token, now);
      return cached && 'session' in cached ? cached.session : null;
    },

    lookup(token: string, now = Date.now()): Lookup {
      const cached = fromCache(token, now);
      if (cached) return cached;
      cache.delete(token);
      if (!TOKEN_PATTERN.test(token)) return null;
      const idHash = hashToken(token);
      const row = select.get(idHash) as Row | undefined;
      if (!row) return null;
      if (now - row.last_seen_at > limits.idleMs || now - row.created_at > limits.absoluteMs) {
        remove.run(idHash);
        return { expired: true };
      }
      let lastSeen = row.last_seen_at;
      if (now - lastSeen > touchEveryMs) {
        touch.run(now, idHash);
        lastSeen = now;
      }
      const session = {
        user: { id: row.user_id, email: row.email, role: row.role },
        createdAt: row.created_at,
      };
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
      cache.set(token, { idHash, session, lastSeen, checkedAt: now });
      return { session };
    },

    destroy(token: string): void {
      if (!TOKEN_PATTERN.test(token)) return;
      const idHash = hashToken(token);
      remove.run(idHash);
      cache.delete(token);
      publish({ kind: 'token', idHash });
    },

    /** Ends every session of a user except the given one (e.g. after a password change). */
    destroyOthers(userId: string, keepToken: string | null): void {
      removeForUser.run(userId, keepToken && TOKEN_PATTERN.test(keepToken) ? hashToken(keepToken) : '');
      this.userChanged(userId);
    },

    /** The user's role changed or the user was removed: cached sessions must be read again. */
    userChanged(userId: string): void {
      forget({ kind: 'user', userId });
      publish({ kind: 'user', userId });
    },

    /** Applies another process's change to this process's cache. */
    apply(event: SessionEvent): void {
      forget(event);
    },

    /** How many sessions this process has cached (for the bound's test). */
    cacheSize: () => cache.size,

    sweep(now = Date.now()): number {
      return Number(sweep.run(now - limits.idleMs, now - limits.absoluteMs).changes);
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;

/** Ends every session of a user (the CLI's password reset). */
export function endSessionsOf(db: Db, userId: string): void {
  db.prepare('DELETE FROM sessions WHERE user_id = ?').run(userId);
}
