import { randomUUID } from 'node:crypto';
import { isoTime } from '@review-desk/server/db/rows';
import type { Database, Queryable } from '@review-desk/server/db/types';
import { AppError } from '@review-desk/server/errors';
import type { Role, User } from '@review-desk/shared';
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

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: isoTime(row.created_at),
    lastLoginAt: isoTime(row.last_login_at),
  };
}

export function createUserStore(db: Database) {
  const byEmail = db.prepare('SELECT * FROM users WHERE email = $1');
  const byId = db.prepare('SELECT * FROM users WHERE id = $1');
  const all = db.prepare('SELECT * FROM users ORDER BY created_at, email');
  const count = db.prepare('SELECT COUNT(*) AS n FROM users');
  const insert = db.prepare(
    'INSERT INTO users (id, email, role, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (email) DO NOTHING',
  );
  const touchLogin = db.prepare('UPDATE users SET last_login_at = $1 WHERE id = $2');

  // Inside a transaction, under the owners' lock: two replicas demoting or removing the last two
  // owners at once must not both pass the check.
  const ownerCount = async (tx: Queryable) =>
    Number((await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM users WHERE role = 'owner'`))?.n ?? 0);

  async function mustFind(q: Queryable, id: string): Promise<UserRow> {
    const row = await q.get<UserRow>('SELECT * FROM users WHERE id = $1', id);
    if (!row) throw new AppError('user_not_found');
    return row;
  }

  return {
    count: async () => Number((await count.get<{ n: number }>())?.n ?? 0),

    list: async (): Promise<User[]> => (await all.all<UserRow>()).map(toUser),

    async get(id: string): Promise<User | null> {
      const row = await byId.get<UserRow>(id);
      return row ? toUser(row) : null;
    },

    async findByEmail(email: string): Promise<UserWithHash | null> {
      const row = await byEmail.get<UserRow>(email.trim().toLowerCase());
      return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
    },

    async create(input: { email: string; role: Role; password: string }): Promise<User> {
      const email = input.email.trim().toLowerCase();
      const hash = await hashPassword(input.password);
      const id = randomUUID();
      const result = await insert.run(id, email, input.role, hash, Date.now());
      if (result.changes === 0)
        throw new AppError('user_exists', `A user with the email ${email} already exists.`);
      return toUser(await mustFind(db, id));
    },

    /** Changes role and/or password. A password change ends the user's other sessions. */
    async update(id: string, change: { role?: Role; password?: string }): Promise<User> {
      const hash = change.password === undefined ? undefined : await hashPassword(change.password);
      return db.transaction(async (tx) => {
        await tx.lock('users', 'owners');
        const row = await mustFind(tx, id);
        const now = Date.now();
        if (change.role !== undefined && change.role !== row.role) {
          if (row.role === 'owner' && (await ownerCount(tx)) <= 1) {
            throw new AppError(
              'last_owner',
              `${row.email} is the last owner: make another user owner before changing this role.`,
            );
          }
          await tx.run('UPDATE users SET role = $1, updated_at = $2 WHERE id = $3', change.role, now, id);
        }
        if (hash !== undefined)
          await tx.run('UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3', hash, now, id);
        return toUser(await mustFind(tx, id));
      });
    },

    async remove(id: string): Promise<User> {
      return db.transaction(async (tx) => {
        await tx.lock('users', 'owners');
        const row = await mustFind(tx, id);
        if (row.role === 'owner' && (await ownerCount(tx)) <= 1) {
          throw new AppError('last_owner', `${row.email} is the last owner and cannot be removed.`);
        }
        await tx.run('DELETE FROM users WHERE id = $1', id); // sessions go with it (ON DELETE CASCADE)
        return toUser(row);
      });
    },

    async recordLogin(id: string): Promise<void> {
      await touchLogin.run(Date.now(), id);
    },
  };
}
export type UserStore = ReturnType<typeof createUserStore>;
