import { BFF_PATHS, type User, userSchema } from '@review-desk/shared/bff';
import { z } from '@review-desk/shared/zod';
import { fixedRead } from '../../../lib/queries.ts';

// GET /bff/users (owners only). The list may come as an array or as { users: [...] }.
const userListSchema = z.pipe(
  z.union([z.array(userSchema), z.looseObject({ users: z.array(userSchema) })]),
  z.transform((data: User[] | { users: User[] }) => (Array.isArray(data) ? data : data.users)),
);

/** One user, as { user } (the BFF's answer to create, update and delete) or bare. */
export const userResultSchema = z.pipe(
  z.union([z.looseObject({ user: userSchema }), userSchema]),
  z.transform((data: { user: User } | User) => ('user' in data ? data.user : data)),
);

export const usersKeys = { all: ['users'] as const };

const users = fixedRead(usersKeys.all, BFF_PATHS.users, userListSchema);
export const getUsers = users.get;
export const usersQueryOptions = users.options;
export const useUsers = users.use;
