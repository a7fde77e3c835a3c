import { BFF_PATHS } from '@review-desk/shared/bff';
import { type LocationAccess, userLocationsSchema } from '@review-desk/shared/locations';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, request } from '../../../lib/http.ts';

// A user's locations (GET/PUT /bff/users/:id/locations): every location, or the chosen ones.

const path = (id: string) => `${BFF_PATHS.users}/${encodeURIComponent(id)}/locations`;

export function userLocationsQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['users', id, 'locations'] as const,
    queryFn: ({ signal }) => getJson(path(id), userLocationsSchema, signal),
  });
}

export function useUserLocations(id: string | null) {
  return useQuery({ ...userLocationsQueryOptions(id ?? ''), enabled: id !== null });
}

export function useSetUserLocations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, access }: { id: string; access: LocationAccess }) =>
      (await request(path(id), userLocationsSchema, { method: 'PUT', body: access })).data,
    onSuccess: (_data, { id }) =>
      queryClient.invalidateQueries({ queryKey: userLocationsQueryOptions(id).queryKey }),
  });
}
