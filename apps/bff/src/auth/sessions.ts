import { createHash, randomBytes } from 'node:crypto';
import type { Database, Subscription } from '@review-desk/server/db/types';
import type { Role, SessionUser } from '@review-desk/shared';

// Server-side sessions in the BFF's database (shared by every worker process and, on PostgreSQL,
// every replica). The browser holds a random 256-bit token; the table holds its SHA-256. Expiry:
// idle (no request for idleMs) and absolute (createdAt + absoluteMs), whichever comes first.
// Logout deletes the row, so the token is dead everywhere at once.

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
 * busy dashboard does not query the database on every call. Logout, password changes, role
 * changes and removals drop the entry at once in this process and tell every other one: cluster
 * workers through `publish`, every process on the database through its notifications (PostgreSQL
 * NOTIFY on SESSION_CHANNEL, listened to by `listen()`). A change a process did not hear of (the
 * CLI on SQLite, a lost listening connection) is seen within CACHE_MS all the same.
 */
const CACHE_MS = 1_000;
/** Only sessions found in the database are cached (a made-up token never is), at most this many. */
export const CACHE_MAX = 10_000;
/** The notification channel of session changes. */
export const SESSION_CHANNEL = 'bff_sessions';

const isEvent = (value: unknown): value is SessionEvent =>
  typeof value === 'object' &&
  value !== null &&
  (((value as SessionEvent).kind === 'token' && typeof (value as { idHash?: unknown }).idHash === 'string') ||
    ((value as SessionEvent).kind === 'user' && typeof (value as { userId?: unknown }).userId === 'string'));

export function createSessionStore(
  db: Database,
  limits: { idleMs: number; absoluteMs: number },
  publish: (event: SessionEvent) => void = () => {},
) {
  const insert = db.prepare(
    'INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)',
  );
  const select = db.prepare(
    `SELECT s.user_id, s.created_at, s.last_seen_at, u.email, u.role
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id_hash = $1`,
  );
  const touch = db.prepare('UPDATE sessions SET last_seen_at = $1 WHERE id_hash = $2');
  const remove = db.prepare('DELETE FROM sessions WHERE id_hash = $1');
  const removeForUser = db.prepare('DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2');
  const sweep = db.prepare('DELETE FROM sessions WHERE last_seen_at < $1 OR created_at < $2');

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
  /** Drops the entry here, then tells the other workers and processes. */
  const announce = async (event: SessionEvent) => {
    forget(event);
    publish(event);
    await db.notify(SESSION_CHANNEL, JSON.stringify(event));
  };
  // A refreshed last_seen_at is worth no wait: the request goes on, a failure only shortens idling.
  const touchLater = (now: number, idHash: string) => {
    touch.run(now, idHash).catch(() => {});
  };

  function fromCache(token: string, now: number): Lookup | undefined {
    const hit = cache.get(token);
    if (!hit || now - hit.checkedAt > CACHE_MS) return undefined;
    // Close to a limit, or past it: let the database decide (another process may have seen it later).
    if (
      now - hit.lastSeen > limits.idleMs - touchEveryMs ||
      now - hit.session.createdAt > limits.absoluteMs
    ) {
      return undefined;
    }
    if (now - hit.lastSeen > touchEveryMs) {
      touchLater(now, hit.idHash);
      hit.lastSeen = now;
    }
    return { session: hit.session };
  }

  return {
    async create(userId: string, now = Date.now()): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await insert.run(hashToken(token), userId, now);
      return token;
    },

    /** The session if this process has it cached and fresh; null means "ask lookup()". */
    peek(token: string, now = Date.now()): Session | null {
      const cached = fromCache(token, now);
      return cached && 'session' in cached ? cached.session : null;
    },

    async lookup(token: string, now = Date.now()): Promise<Lookup> {
      const cached = fromCache(token, now);
      if (cached) return cached;
      cache.delete(token);
      if (!TOKEN_PATTERN.test(token)) return null;
      const idHash = hashToken(token);
      const row = await select.get<Row>(idHash);
      if (!row) return null;
      if (now - row.last_seen_at > limits.idleMs || now - row.created_at > limits.absoluteMs) {
        await remove.run(idHash);
        return { expired: true };
      }
      let lastSeen = row.last_seen_at;
      if (now - lastSeen > touchEveryMs) {
        touchLater(now, idHash);
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

    async destroy(token: string): Promise<void> {
      if (!TOKEN_PATTERN.test(token)) return;
      const idHash = hashToken(token);
      await remove.run(idHash);
      cache.delete(token);
      await announce({ kind: 'token', idHash });
    },

    /** Ends every session of a user except the given one (e.g. after a password change). */
    async destroyOthers(userId: string, keepToken: string | null): Promise<void> {
      await removeForUser.run(userId, keepToken && TOKEN_PATTERN.test(keepToken) ? hashToken(keepToken) : '');
      await this.userChanged(userId);
    },

    /** The user's role changed or the user was removed: cached sessions must be read again. */
    async userChanged(userId: string): Promise<void> {
      await announce({ kind: 'user', userId });
    },

    /** Applies another process's change to this process's cache. */
    apply(event: SessionEvent): void {
      forget(event);
    },

    /**
     * Hears the changes made by every other process on the database. A lost listening connection
     * may have missed some: the whole cache is dropped when it is back.
     */
    listen(): Promise<Subscription> {
      return db.listen(
        SESSION_CHANNEL,
        (payload) => {
          let event: unknown;
          try {
            event = JSON.parse(payload);
          } catch {
            return;
          }
          if (isEvent(event)) forget(event);
        },
        { onReconnect: () => cache.clear() },
      );
    },

    /** How many sessions this process has cached (for the bound's test). */
    cacheSize: () => cache.size,

    async sweep(now = Date.now()): Promise<number> {
      return (await sweep.run(now - limits.idleMs, now - limits.absoluteMs)).changes;
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;

/** Ends every session of a user (the CLI's password reset) and tells the running processes. */
export async function endSessionsOf(db: Database, userId: string): Promise<void> {
  await db.run('DELETE FROM sessions WHERE user_id = $1', userId);
  await db.notify(SESSION_CHANNEL, JSON.stringify({ kind: 'user', userId } satisfies SessionEvent));
}
