import { BFF_PATHS, type createUserSchema } from '@review-desk/shared/bff';
import type { z } from '@review-desk/shared/zod';
import { sendJson, useChangeThenReread } from '../../../lib/changes.ts';
import { userResultSchema, usersKeys } from './get-users.ts';

export type CreateUserBody = z.output<typeof createUserSchema>;

export function createUser(body: CreateUserBody) {
  return sendJson('POST', BFF_PATHS.users, userResultSchema, body);
}

export function useCreateUser() {
  return useChangeThenReread(createUser, usersKeys.all);
}
