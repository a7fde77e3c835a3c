import { BFF_PATHS } from '@review-desk/shared/bff';
import { z } from '@review-desk/shared/zod';
import { sendJson, useChangeThenReread } from '../../../lib/changes.ts';
import { usersKeys } from './get-users.ts';

export async function deleteUser(id: string) {
  await sendJson('DELETE', `${BFF_PATHS.users}/${encodeURIComponent(id)}`, z.unknown());
}

export function useDeleteUser() {
  return useChangeThenReread(deleteUser, usersKeys.all);
}
