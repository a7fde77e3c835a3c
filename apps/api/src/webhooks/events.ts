import type { Queryable } from '@review-desk/server/db/types';
import type { ContactOptedOut, RequestRecord, WebhookEventType } from '@review-desk/shared';
import { type DeliveryHooks, deliveryStore } from '../delivery/store.ts';
import type { OriginStore } from '../requests/origins.ts';
import { toRequestRecord } from '../requests/record-view.ts';
import type { requestStore } from '../requests/store.ts';
import type { ReviewListRow } from '../reviews/store.ts';
import { toReview } from '../reviews/view.ts';
import { outboxStore, type WebhookOutbox } from './outbox-store.ts';
import { eventId } from './sign.ts';

// The one writer of events (docs/api.md, "Webhooks"). Every call is made inside the transaction
// of the write it reports, so its deliveries commit with that write or not at all: an event is
// never lost to a crash after the write, nor made up by a write rolled back. The body is built
// once, as the API returns the resource (GET /api/v1/requests/{id}, a review of the list), and
// sent unchanged on every attempt. A business without a listening endpoint pays one index probe.

export type EventBody = { id: string; type: string; body: string };

export function eventBody(type: string, data: unknown, at: number): EventBody {
  const id = eventId();
  return { id, type, body: JSON.stringify({ id, type, timestamp: new Date(at).toISOString(), data }) };
}

export function eventWriter(
  db: Queryable & Parameters<typeof deliveryStore>[0],
  stores: { requests: ReturnType<typeof requestStore>; origins: OriginStore },
) {
  const outbox: WebhookOutbox = outboxStore(db);
  const delivery = deliveryStore(db);

  /** Writes the event when an endpoint listens; `data` is read only then. */
  async function emit(businessId: number, type: WebhookEventType, data: () => Promise<unknown>, at: number) {
    if (!(await outbox.listening(businessId, type))) return;
    await outbox.record(businessId, eventBody(type, await data(), at), at);
  }

  /** A request as GET /api/v1/requests/{id} answers it now (inside the caller's transaction). */
  async function requestResource(businessId: number, requestId: string): Promise<RequestRecord | null> {
    const row = await delivery.request(businessId, requestId);
    if (!row) return null;
    const [legs, journey, origin] = await Promise.all([
      delivery.legs(requestId),
      stores.requests.byPublicId(requestId),
      stores.origins.byRequest(requestId),
    ]);
    return toRequestRecord(row, legs, journey, origin);
  }

  return {
    outbox,
    /**
     * One statement for a transaction that decides nothing on answers (a send's shared commit):
     * the body is built already; nothing is written when no endpoint listens.
     */
    recordNow(businessId: number, type: WebhookEventType, data: unknown, at: number): Promise<number> {
      return outbox.record(businessId, eventBody(type, data, at), at);
    },
    /** request.sent, request.delivered, request.failed, request.completed. */
    request(type: WebhookEventType, businessId: number, requestId: string, at: number) {
      return emit(businessId, type, () => requestResource(businessId, requestId), at);
    },
    /** review.created, review.updated: the review as the list returns it. */
    review(type: 'review.created' | 'review.updated', businessId: number, review: ReviewListRow, at: number) {
      return emit(businessId, type, async () => toReview(review), at);
    },
    optedOut(businessId: number, data: ContactOptedOut, at: number) {
      return emit(businessId, 'contact.opted_out', async () => data, at);
    },
    requestResource,
  };
}
export type EventWriter = ReturnType<typeof eventWriter>;

/** The events of the delivery tables' writes: receipts that settle a leg, and opt-outs by text. */
export function deliveryEvents(events: EventWriter): DeliveryHooks {
  return {
    legSettled: (leg, at) =>
      events.request(
        leg.state === 'delivered' ? 'request.delivered' : 'request.failed',
        leg.business_id,
        leg.request_id,
        at,
      ),
    optedOut: (businessId, phone, source, at) =>
      events.optedOut(businessId, { phone, email: null, source, requestId: null }, at),
  };
}
