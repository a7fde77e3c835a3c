import type { z } from '@review-desk/shared/zod';
import { keepPreviousData, type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from './http.ts';

// The dashboard's server state, each kind declared once: a read of a fixed path, and a read that
// depends on its query (a page of a list, a window of days). Changes: lib/changes.ts (not needed
// to show a page, so not part of any first load).

/** A GET of a fixed path, cached under `key`: the call, its query options and its hook. */
export function fixedRead<S extends z.core.$ZodType>(key: QueryKey, path: string, schema: S) {
  const get = (signal?: AbortSignal) => getJson(path, schema, signal);
  const options = () => queryOptions({ queryKey: key, queryFn: ({ signal }) => get(signal) });
  return { get, options, use: () => useQuery(options()) };
}

/**
 * A read that depends on `query`, cached under `keyOf(query)`: its query options and its hook.
 * The answer on screen stays while the next one loads.
 */
export function queryRead<Q, T>(
  keyOf: (query: Q) => QueryKey,
  get: (query: Q, signal?: AbortSignal) => Promise<T>,
) {
  const options = (query: Q) =>
    queryOptions({
      queryKey: keyOf(query),
      queryFn: ({ signal }) => get(query, signal),
      placeholderData: keepPreviousData,
    });
  return { options, use: (query: Q) => useQuery(options(query)) };
}
