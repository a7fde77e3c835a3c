import { BFF_PATHS } from '@review-desk/shared/bff';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { request } from '../../../lib/http.ts';
import { usersKeys } from './get-users.ts';

export async function deleteUser(id: string) {
  await request(`${BFF_PATHS.users}/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
