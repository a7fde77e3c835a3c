import { isoTime } from '@review-desk/server/db/rows';
import type { RequestRecord } from '@review-desk/shared';
import type { DeliveryRequestRow, LegRow } from '../delivery/rows.ts';
import type { OriginRow } from './origins.ts';
import type { RequestRow } from './store.ts';

// A request as GET /api/v1/requests/{id} answers it, from its two records (decision 0025), its
// legs and its origin: written once for the reads and for the events that carry it (webhooks/).

export function toRequestRecord(
  row: DeliveryRequestRow,
  legs: readonly LegRow[],
  journey: Pick<RequestRow, 'clicked_at' | 'completed_at' | 'opted_out_at'> | null | undefined,
  origin: OriginRow | null | undefined,
): RequestRecord {
  return {
    id: row.request_id,
    channel: row.channel,
    status: row.status,
    createdAt: isoTime(row.created_at),
    scheduledFor: isoTime(row.scheduled_for),
    clicked: journey?.clicked_at != null,
    completed: journey?.completed_at != null,
    optedOut: journey?.opted_out_at != null,
    legs: legs.map((leg) => ({
      channel: leg.channel,
      kind: leg.kind,
      provider: leg.provider,
      state: leg.state,
      error: leg.error,
      updatedAt: isoTime(leg.updated_at),
    })),
    externalId: origin?.external_id ?? null,
    automatic: origin?.source ? { source: origin.source, id: origin.source_id ?? '' } : null,
  };
}
