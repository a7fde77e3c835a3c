import {
  BFF_SAVED_REPLIES_PATH,
  type SavedReply,
  savedRepliesSchema,
} from '@review-desk/shared/saved-replies';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, request } from './http.ts';
import { inLocation } from './location.ts';

// GET/PUT /bff/saved-replies: a location's saved replies, read by the reply box (whoever answers)
// and written on the Settings page (owners). `slug` names the location (null: this page's).

export function savedRepliesQueryOptions(slug: string | null) {
  return queryOptions({
    queryKey: ['saved-replies', slug] as const,
    queryFn: ({ signal }) => getJson(inLocation(BFF_SAVED_REPLIES_PATH, slug), savedRepliesSchema, signal),
    staleTime: 5 * 60_000,
  });
}

export const useSavedReplies = (slug: string | null) => useQuery(savedRepliesQueryOptions(slug));

export function useSaveSavedReplies() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (replies: SavedReply[]) =>
      (await request(BFF_SAVED_REPLIES_PATH, savedRepliesSchema, { method: 'PUT', body: { replies } })).data,
    onSuccess: (answer) => client.setQueryData(savedRepliesQueryOptions(null).queryKey, answer),
  });
}
