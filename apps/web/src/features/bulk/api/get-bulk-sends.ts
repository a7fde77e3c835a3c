import { bulkJobListSchema, bulkPaths } from '@review-desk/shared/bulk';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/http.ts';
import { bulkKeys } from './get-bulk-send.ts';

// GET /bff/bulk-sends: the location's list sends, newest first, with who started each.

export function bulkSendsQueryOptions() {
  return queryOptions({
    queryKey: [...bulkKeys.all, 'list'] as const,
    queryFn: ({ signal }) => getJson(bulkPaths.list, bulkJobListSchema, signal),
  });
}

export function useBulkSends() {
  return useQuery(bulkSendsQueryOptions());
}
