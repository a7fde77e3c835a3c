import { BFF_PATHS, type updateUserSchema } from '@review-desk/shared/bff';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { request } from '../../../lib/http.ts';
import { userResultSchema, usersKeys } from './get-users.ts';

export type UpdateUserBody = z.output<typeof updateUserSchema>;

export async function updateUser({ id, body }: { id: string; body: UpdateUserBody }) {
  return (
    await request(`${BFF_PATHS.users}/${encodeURIComponent(id)}`, userResultSchema, { method: 'PATCH', body })
  ).data;
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
