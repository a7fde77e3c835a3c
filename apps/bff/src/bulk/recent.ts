import { askAgainFrom, countsTowardCap, type SendRequest } from '@review-desk/shared';
import type { ContactHasher } from '../journal/contact.ts';
import type { Journal } from '../journal/journal.ts';

// "Skip contacts sent to recently": the same send history the send form warns from (GET
// /bff/sends?contact=…), read through the journal's own query, by the contact's keyed hash, for
// the job's location.

export function recentContactCheck(deps: { journal: Journal; hasher: ContactHasher; capDays: number }) {
  return async (send: SendRequest, location: string, now = Date.now()): Promise<string | null> => {
    if (deps.capDays === 0) return null;
    const filters = [
      send.customerPhone ? { phoneHash: deps.hasher.phone(send.customerPhone) } : null,
      send.customerEmail ? { emailHashes: deps.hasher.emailLookups(send.customerEmail) } : null,
    ];
    for (const filter of filters) {
      if (filter === null) continue;
      const { sends } = await deps.journal.list({ location, page: 1, limit: 5, ...filter });
      const hit = sends.find((s) =>
        countsTowardCap(
          { status: s.outcome, createdAt: Date.parse(s.createdAt) },
          { now, capDays: deps.capDays },
        ),
      );
      if (hit) {
        const again = askAgainFrom(hit.createdAt, deps.capDays).toISOString().slice(0, 10);
        return `A request went to this contact on ${hit.createdAt.slice(0, 10)}, within the ${deps.capDays}-day window: skipped. You can ask again on ${again} (UTC).`;
      }
    }
    return null;
  };
}
