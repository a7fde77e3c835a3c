import { randomUUID } from 'node:crypto';
import { AppError } from '@review-desk/server/errors';
import type { Role, User } from '@review-desk/shared';
import { type Db, transaction } from '../store/db.ts';
import { hashPassword } from './passwords.ts';

// Dashboard users. Roles are the shared ROLES; the last owner can be neither removed nor demoted,
// so a workspace can always be managed.

type UserRow = {
  id: string;
  email: string;
  role: Role;
  password_hash: string;
  created_at: number;
  last_login_at: number | null;
};

export type UserWithHash = User & { passwordHash: string };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: new Date(row.created_at).toISOString(),
    lastLoginAt: iso(row.last_login_at),
  };
}

export function createUserStore(db: Db) {
  const byEmail = db.prepare('SELECT * FROM users WHERE email = ?');
  const byId = db.prepare('SELECT * FROM users WHERE id = ?');
  const all = db.prepare('SELECT * FROM users ORDER BY created_at, email');
  const count = db.prepare('SELECT COUNT(*) AS n FROM users');
  const owners = db.prepare(`SELECT COUNT(*) AS n FROM users WHERE role = 'owner'`);
  const insert = db.prepare(
    'INSERT INTO users (id, email, role, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING',
  );
  const setRole = db.prepare('UPDATE users SET role = ?, updated_at = ? WHERE id = ?');
  const setPassword = db.prepare('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM users WHERE id = ?');
  const touchLogin = db.prepare('UPDATE users SET last_login_at = ? WHERE id = ?');

  const ownerCount = () => Number((owners.get() as { n: number }).n);

  function mustFind(id: string): UserRow {
    const row = byId.get(id) as UserRow | undefined;
    if (!row) throw new AppError('user_not_found');
    return row;
  }

  return {
    count: () => Number((count.get() as { n: number }).n),

    list: (): User[] => (all.all() as UserRow[]).map(toUser),

    get(id: string): User | null {
      const row = byId.get(id) as UserRow | undefined;
      return row ? toUser(row) : null;
    },

    findByEmail(email: string): UserWithHash | null {
      const row = byEmail.get(email.trim().toLowerCase()) as UserRow | undefined;
      return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
    },

    async create(input: { email: string; role: Role; password: string }): Promise<User> {
      const email = input.email.trim().toLowerCase();
      const hash = await hashPassword(input.password);
      const now = Date.now();
      const id = randomUUID();
      const result = insert.run(id, email, input.role, hash, now, now);
      if (result.changes === 0)
        throw new AppError('user_exists', `A user with the email ${email} already exists.`);
      return toUser(mustFind(id));
    },

    /** Changes role and/or password. A password change ends the user's other sessions. */
    async update(id: string, change: { role?: Role; password?: string }): Promise<User> {
      const hash = change.password === undefined ? undefined : await hashPassword(change.password);
      return transaction(db, () => {
        const row = mustFind(id);
        const now = Date.now();
        if (change.role !== undefined && change.role !== row.role) {
          if (row.role === 'owner' && ownerCount() <= 1) {
            throw new AppError(
              'last_owner',
              `${row.email} is the last owner: make another user owner before changing this role.`,
            );
          }
          setRole.run(change.role, now, id);
        }
        if (hash !== undefined) setPassword.run(hash, now, id);
        return toUser(mustFind(id));
      });
    },

    remove(id: string): User {
      return transaction(db, () => {
        const row = mustFind(id);
        if (row.role === 'owner' && ownerCount() <= 1) {
          throw new AppError('last_owner', `${row.email} is the last owner and cannot be removed.`);
        }
        remove.run(id); // sessions go with it (ON DELETE CASCADE)
        return toUser(row);
      });
    },

    recordLogin(id: string): void {
      touchLogin.run(Date.now(), id);
    },
  };
}
export type UserStore = ReturnType<typeof createUserStore>;
