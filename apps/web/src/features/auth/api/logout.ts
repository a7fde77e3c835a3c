import { BFF_PATHS } from '@review-desk/shared/bff';
import { z } from '@review-desk/shared/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http.ts';

export async function logout() {
  await request(BFF_PATHS.logout, z.unknown(), { method: 'POST', skipAuthRedirect: true });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    // Whatever the server answered, this browser forgets the user's data.
    onSettled() {
      queryClient.clear();
    },
  });
}
