import { BFF_PATHS, userSchema } from '@review-desk/shared/bff';
import { z } from 'zod';
import { fixedRead } from '../../../lib/queries.ts';

// GET /bff/users (owners only). The list may come as an array or as { users: [...] }.
const userListSchema = z
  .union([z.array(userSchema), z.looseObject({ users: z.array(userSchema) })])
  .transform((data) => (Array.isArray(data) ? data : data.users));

/** One user, as { user } (the BFF's answer to create, update and delete) or bare. */
export const userResultSchema = z
  .union([z.looseObject({ user: userSchema }), userSchema])
  .transform((data) => ('user' in data ? data.user : data));

export const usersKeys = { all: ['users'] as const };

const users = fixedRead(usersKeys.all, BFF_PATHS.users, userListSchema);
export const getUsers = users.get;
export const usersQueryOptions = users.options;
export const useUsers = users.use;
