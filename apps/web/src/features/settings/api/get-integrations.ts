import {
  BFF_INTEGRATION_PATHS,
  integrationSchema,
  integrationsSchema,
  type SquareUpdate,
} from '@review-desk/shared/integrations';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, request } from '../../../lib/http.ts';

// GET /bff/integrations (owners): each point of sale, connected or not; PUT and DELETE
// /bff/integrations/square connect, change or disconnect Square. Keys go in, never come back.

export const integrationKeys = { all: ['integrations'] as const };

export function integrationsQueryOptions() {
  return queryOptions({
    queryKey: integrationKeys.all,
    queryFn: ({ signal }) => getJson(BFF_INTEGRATION_PATHS.integrations, integrationsSchema, signal),
  });
}

export function useIntegrations() {
  return useQuery(integrationsQueryOptions());
}

export function useChangeSquare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: SquareUpdate | 'disconnect') =>
      change === 'disconnect'
        ? await request(BFF_INTEGRATION_PATHS.square, integrationSchema, {
            method: 'DELETE',
          })
        : await request(BFF_INTEGRATION_PATHS.square, integrationSchema, {
            method: 'PUT',
            body: change,
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
