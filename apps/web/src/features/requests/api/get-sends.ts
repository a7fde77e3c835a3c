import { BFF_PATHS, type SendHistoryQuery, sendHistorySchema } from '@review-desk/shared/bff';
import { toSearchParams } from '@review-desk/shared/query';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson, withQuery } from '../../../lib/http.ts';

// GET /bff/sends: this dashboard's send journal, newest first, filterable by contact.

export type SendsQuery = Pick<SendHistoryQuery, 'page' | 'limit'> & { contact?: string | undefined };

export function getSends(query: SendsQuery, signal?: AbortSignal) {
  const params = toSearchParams({ page: query.page, limit: query.limit, contact: query.contact });
  return getJson(withQuery(BFF_PATHS.sends, params), sendHistorySchema, signal);
}

export const sendsKeys = {
  all: ['sends'] as const,
  list: (query: SendsQuery) =>
    [...sendsKeys.all, 'list', { page: query.page, limit: query.limit, contact: query.contact }] as const,
};

export function sendsQueryOptions(query: SendsQuery) {
  return queryOptions({
    queryKey: sendsKeys.list(query),
    queryFn: ({ signal }) => getSends(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useSends(query: SendsQuery) {
  return useQuery(sendsQueryOptions(query));
}
