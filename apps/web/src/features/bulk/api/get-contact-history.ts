import { askAgainFrom, BFF_PATHS, type SendHistoryEntry, sendHistorySchema } from '@review-desk/shared/bff';
import { countsTowardCap } from '@review-desk/shared/frequency-cap';
import { toSearchParams } from '@review-desk/shared/query';
import { getJson, withQuery } from '../../../lib/http.ts';

// GET /bff/sends?contact=…: the journal's sends to one contact, for the list's "sent to recently"
// check (the same history the send form warns from).

export async function contactHistory(contact: string, signal?: AbortSignal): Promise<SendHistoryEntry[]> {
  const params = toSearchParams({ page: 1, limit: 20, contact });
  return (await getJson(withQuery(BFF_PATHS.sends, params), sendHistorySchema, signal)).sends;
}

/** Sends inside the cap window that reached (or may have reached) the contact. */
export function sentWithin(entries: readonly SendHistoryEntry[], capDays: number, now = Date.now()) {
  return entries.filter((e) =>
    countsTowardCap({ status: e.outcome, createdAt: Date.parse(e.createdAt) }, { now, capDays }),
  );
}

/** When the contact can be asked again: the cap's days after the latest send inside the window; null if now. */
export function askAgainAt(
  entries: readonly SendHistoryEntry[],
  capDays: number,
  now = Date.now(),
): number | null {
  const latest = Math.max(...sentWithin(entries, capDays, now).map((e) => Date.parse(e.createdAt)));
  return Number.isFinite(latest) ? askAgainFrom(new Date(latest).toISOString(), capDays).getTime() : null;
}
