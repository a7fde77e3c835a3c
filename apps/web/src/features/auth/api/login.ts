import { BFF_PATHS, type LoginBody, meSchema } from '@review-desk/shared/bff';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http.ts';
import { meQueryOptions } from './get-me.ts';

export async function login(body: LoginBody) {
  // A 401 here means wrong credentials, not a lost session.
  return (await request(BFF_PATHS.login, meSchema, { method: 'POST', body, skipAuthRedirect: true })).data;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess(me) {
      // Nothing cached for a previous user may show to this one.
      queryClient.clear();
      queryClient.setQueryData(meQueryOptions().queryKey, me);
    },
  });
}
