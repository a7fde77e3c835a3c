import type { LocationSummary } from '@review-desk/shared/locations';
import { ApiError } from '../../../lib/api-error.ts';

/** Calls to the locations' upstreams at once, at most this many in flight (one browser's share). */
export const FAN_OUT_LIMIT = 6;

/** What a location's failed call shows in its row: the server's words and the code. */
export function rowError(location: LocationSummary, error: unknown) {
  return {
    slug: location.slug,
    name: location.name,
    ok: false as const,
    error: error instanceof Error ? error.message : 'The call failed.',
    code: error instanceof ApiError ? (error.code ?? undefined) : undefined,
  };
}
