import type { RequestLeg, RequestRecord } from '@review-desk/shared';

// A request as GET /api/v1/requests lists it (the requests extension, docs/api.md), for the
// suites that put one behind a stubbed or fake upstream.

/** Sent at noon on 10 June 2026, not opened yet, with its legs as the service knows them. */
export function sentRequest(
  id: string,
  channel: RequestRecord['channel'],
  legs: RequestLeg[],
): RequestRecord {
  return {
    id,
    channel,
    status: 'sent',
    createdAt: '2026-06-10T12:00:00.000Z',
    scheduledFor: null,
    clicked: false,
    completed: false,
    optedOut: false,
    legs,
  };
}
