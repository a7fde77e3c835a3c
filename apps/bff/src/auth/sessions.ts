import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '@review-desk/shared';
import type { Db } from '../store/db.ts';

// Server-side sessions in SQLite (shared by every worker process). The browser holds a random
// 256-bit token; the table holds its SHA-256. Expiry: idle (no request for idleMs) and absolute
// (createdAt + absoluteMs), whichever comes first. Logout deletes the row, so the token is dead
// everywhere at once.

export type SessionUser = { id: string; email: string; role: Role };
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

export function createSessionStore(db: Db, limits: { idleMs: number; absoluteMs: number }) {
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

  return {
    create(userId: string, now = Date.now()): string {
      const token = randomBytes(32).toString('base64url');
      insert.run(hashToken(token), userId, now, now);
      return token;
    },

    lookup(token: string, now = Date.now()): Lookup {
      if (!TOKEN_PATTERN.test(token)) return null;
      const idHash = hashToken(token);
      const row = select.get(idHash) as Row | undefined;
      if (!row) return null;
      if (now - row.last_seen_at > limits.idleMs || now - row.created_at > limits.absoluteMs) {
        remove.run(idHash);
        return { expired: true };
      }
      if (now - row.last_seen_at > touchEveryMs) touch.run(now, idHash);
      return {
        session: { user: { id: row.user_id, email: row.email, role: row.role }, createdAt: row.created_at },
      };
    },

    destroy(token: string): void {
      if (TOKEN_PATTERN.test(token)) remove.run(hashToken(token));
    },

    /** Ends every session of a user except the given one (e.g. after a password change). */
    destroyOthers(userId: string, keepToken: string | null): void {
      removeForUser.run(userId, keepToken && TOKEN_PATTERN.test(keepToken) ? hashToken(keepToken) : '');
    },

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
