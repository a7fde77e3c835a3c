import { BFF_PATHS, type SendHistoryQuery, sendHistorySchema } from '@review-desk/shared/bff';
import { toSearchParams } from '@review-desk/shared/query';
import { getJson, withQuery } from '../../../lib/http.ts';
import { queryRead } from '../../../lib/queries.ts';

// GET /bff/sends: this dashboard's send journal, newest first, filterable by contact.

export type SendsQuery = Pick<SendHistoryQuery, 'page' | 'limit'> & {
  contact?: string | undefined;
  /** Where a phone number without + is from (the searcher's country). */
  country?: string | undefined;
};

export function getSends(query: SendsQuery, signal?: AbortSignal) {
  const params = toSearchParams({
    page: query.page,
    limit: query.limit,
    contact: query.contact,
    country: query.country,
  });
  return getJson(withQuery(BFF_PATHS.sends, params), sendHistorySchema, signal);
}

export const sendsKeys = {
  all: ['sends'] as const,
  list: (query: SendsQuery) =>
    [
      ...sendsKeys.all,
      'list',
      { page: query.page, limit: query.limit, contact: query.contact, country: query.country },
    ] as const,
};

const sends = queryRead(sendsKeys.list, getSends);
export const sendsQueryOptions = sends.options;
export const useSends = sends.use;
