import { BFF_GOOGLE_PATH, type GoogleConnectBody, googleConnectionSchema } from '@review-desk/shared/google';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, request } from '../../../lib/http.ts';

// GET/PUT/DELETE /bff/settings/google (owners): the location's Google Business Profile connection.
// The refresh token goes to the server once and never comes back.

export const googleKey = ['settings', 'google'] as const;

export function googleQueryOptions() {
  return queryOptions({
    queryKey: googleKey,
    queryFn: ({ signal }) => getJson(BFF_GOOGLE_PATH, googleConnectionSchema, signal),
  });
}

export const useGoogleConnection = () => useQuery(googleQueryOptions());

export function useChangeGoogleConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: GoogleConnectBody | null) =>
      (
        await request(
          BFF_GOOGLE_PATH,
          googleConnectionSchema,
          body === null ? { method: 'DELETE' } : { method: 'PUT', body },
        )
      ).data,
    onSuccess: (answer) => client.setQueryData(googleKey, answer),
  });
}
