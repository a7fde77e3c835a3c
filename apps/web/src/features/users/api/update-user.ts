import { BFF_PATHS, type updateUserSchema } from '@review-desk/shared/bff';
import type { z } from '@review-desk/shared/zod';
import { sendJson, useChangeThenReread } from '../../../lib/changes.ts';
import { userResultSchema, usersKeys } from './get-users.ts';

export type UpdateUserBody = z.output<typeof updateUserSchema>;

export function updateUser({ id, body }: { id: string; body: UpdateUserBody }) {
  return sendJson('PATCH', `${BFF_PATHS.users}/${encodeURIComponent(id)}`, userResultSchema, body);
}

export function useUpdateUser() {
  return useChangeThenReread(updateUser, usersKeys.all);
}
