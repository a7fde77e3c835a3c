import type { z } from '@review-desk/shared/zod';
import {
  keepPreviousData,
  type QueryKey,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { getJson, type RequestOptions, request } from './http.ts';

// The dashboard's server state, each kind declared once: a read of a fixed path, a read that
// depends on its query (a page of a list, a window of days), and a change after which what it
// touched is read again.

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

/** A POST, PUT, PATCH or DELETE with a JSON body: only the parsed data. */
export async function sendJson<S extends z.core.$ZodType>(
  method: NonNullable<RequestOptions['method']>,
  path: string,
  schema: S,
  body?: unknown,
): Promise<z.output<S>> {
  return (await request(path, schema, body === undefined ? { method } : { method, body })).data;
}

/** A change, after which what is cached under `key` is read again. */
export function useChangeThenReread<A, R>(mutationFn: (arg: A) => Promise<R>, key: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: key }) });
}
