import { BFF_PATHS, type createUserSchema } from '@review-desk/shared/bff';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { request } from '../../../lib/http.ts';
import { userResultSchema, usersKeys } from './get-users.ts';

export type CreateUserBody = z.output<typeof createUserSchema>;

export async function createUser(body: CreateUserBody) {
  return (await request(BFF_PATHS.users, userResultSchema, { method: 'POST', body })).data;
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
