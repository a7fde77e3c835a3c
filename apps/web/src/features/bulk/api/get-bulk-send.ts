import { bulkJobSchema, bulkPaths, bulkRowPageSchema } from '@review-desk/shared/bulk';
import { toSearchParams } from '@review-desk/shared/query';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson, withQuery } from '../../../lib/http.ts';

// GET /bff/bulk-sends/{id} (status, counts, rate) — polled every second while it runs — and
// GET /bff/bulk-sends/{id}/rows, a page of the rows' outcomes.

export const POLL_MS = 1_000;

export const bulkKeys = {
  all: ['bulk-sends'] as const,
  one: (id: string) => [...bulkKeys.all, id] as const,
  rows: (id: string, page: number, version = '') => [...bulkKeys.all, id, 'rows', page, version] as const,
};

export function bulkSendQueryOptions(id: string) {
  return queryOptions({
    queryKey: bulkKeys.one(id),
    queryFn: ({ signal }) => getJson(bulkPaths.one(id), bulkJobSchema, signal),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false),
  });
}

export function useBulkSend(id: string) {
  return useQuery(bulkSendQueryOptions(id));
}

export const ROWS_PER_PAGE = 50;

/** A page of rows; `version` (the job's counts) changes whenever a row's outcome does. */
export function bulkRowsQueryOptions(id: string, page: number, version: string) {
  return queryOptions({
    queryKey: bulkKeys.rows(id, page, version),
    queryFn: ({ signal }) =>
      getJson(
        withQuery(bulkPaths.rows(id), toSearchParams({ page, limit: ROWS_PER_PAGE })),
        bulkRowPageSchema,
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useBulkRows(id: string, page: number, version: string) {
  return useQuery(bulkRowsQueryOptions(id, page, version));
}
