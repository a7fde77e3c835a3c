import type { z } from '@review-desk/shared/zod';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type RequestOptions, request } from './http.ts';

// Changes to server state: a call with a JSON body, and a change after which what it touched is
// read again (lib/queries.ts declares the reads).

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
