import { BFF_PATHS, userSchema } from '@review-desk/shared/bff';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '../../../lib/http.ts';

// GET /bff/users (owners only). The list may come as an array or as { users: [...] }.
const userListSchema = z
  .union([z.array(userSchema), z.looseObject({ users: z.array(userSchema) })])
  .transform((data) => (Array.isArray(data) ? data : data.users));

/** One user, as { user } (the BFF's answer to create, update and delete) or bare. */
export const userResultSchema = z
  .union([z.looseObject({ user: userSchema }), userSchema])
  .transform((data) => ('user' in data ? data.user : data));

export function getUsers(signal?: AbortSignal) {
  return getJson(BFF_PATHS.users, userListSchema, signal);
}

export const usersKeys = { all: ['users'] as const };

export function usersQueryOptions() {
  return queryOptions({ queryKey: usersKeys.all, queryFn: ({ signal }) => getUsers(signal) });
}

export function useUsers() {
  return useQuery(usersQueryOptions());
}
