import { randomBytes } from 'node:crypto';
import { AppError } from '@review-desk/server/errors';
import type { SecretBox } from '@review-desk/server/secrets';
import {
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_ROTATION_OVERLAP_MS,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookWithSecret,
  webhookCreateSchema,
} from '@review-desk/shared';
import type { Store } from '../store/index.ts';
import { resolveTarget } from './address.ts';
import { type EndpointRow, eventsOf } from './endpoints-store.ts';
import { eventBody } from './events.ts';
import type { DeliveryRow } from './outbox-store.ts';
import { newWebhookSecret } from './sign.ts';

// A business's webhook endpoints (docs/api.md, "Webhooks"): made with a secret shown once, listed,
// removed with their log, rotated (the old secret signs beside the new one for 24 hours), resumed
// after a pause, sent a test event; and each endpoint's delivery log with "send again".

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toEndpoint(row: EndpointRow, now: number): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: eventsOf(row.events),
    state: row.state,
    pausedAt: iso(row.paused_at),
    pausedReason: row.paused_reason,
    createdAt: new Date(row.created_at).toISOString(),
    previousSecretUntil:
      row.previous_until !== null && row.previous_until > now ? iso(row.previous_until) : null,
    lastSuccessAt: iso(row.last_success_at),
    lastFailureAt: iso(row.last_failure_at),
  };
}

export function toDeliveryView(row: DeliveryRow): WebhookDelivery {
  return {
    id: String(row.id),
    eventId: row.event_id,
    type: row.type,
    state: row.state,
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: new Date(row.created_at).toISOString(),
    lastAttemptAt: iso(row.last_attempt_at),
    nextAttemptAt: row.state === 'pending' ? iso(row.next_at) : null,
    deliveredAt: iso(row.delivered_at),
  };
}

/** The secrets an endpoint signs with now: its own, and the one before a rotation for 24 hours. */
export function secretsOf(box: SecretBox, row: EndpointRow, now: number): string[] {
  const secrets = [box.open(row.secret, row.id)];
  if (row.previous_secret && row.previous_until !== null && row.previous_until > now)
    secrets.push(box.open(row.previous_secret, `${row.id}:previous`));
  return secrets;
}

export function createWebhooks(deps: {
  store: Store;
  box: SecretBox;
  allowPrivate: boolean;
  now: () => number;
  /** Called after something became due now (a test event, a resend, a resume). */
  wake: () => void;
}) {
  const { store, box } = deps;
  const endpoints = store.webhookEndpoints;
  const outbox = store.events.outbox;

  async function mustGet(businessId: number, id: string): Promise<EndpointRow> {
    const row = await endpoints.get(businessId, id);
    if (!row) throw new AppError('not_found', 'No webhook endpoint with this id.');
    return row;
  }

  return {
    async create(businessId: number, body: unknown): Promise<WebhookWithSecret> {
      const parsed = webhookCreateSchema.safeParse(body);
      if (!parsed.success) throw AppError.validation(parsed.error);
      const { url, events } = parsed.data;
      // Where it points is checked now, and again at every delivery.
      const target = await resolveTarget(new URL(url), deps.allowPrivate);
      if (!target.ok && !/could not be resolved|has no address/.test(target.reason))
        throw new AppError('webhook_url_refused', target.reason, { fields: { url: target.reason } });
      const id = `we_${randomBytes(12).toString('base64url')}`;
      const secret = newWebhookSecret();
      const at = deps.now();
      const row = await store.transaction(async (tx) => {
        await tx.lock('webhooks', businessId);
        return endpoints.create(
          { id, businessId, url, events, sealedSecret: box.seal(secret, id), at },
          WEBHOOK_ENDPOINTS_MAX,
        );
      });
      if (!row) throw new AppError('webhook_limit_reached');
      return { ...toEndpoint(row, at), secret };
    },
    async list(businessId: number): Promise<WebhookEndpoint[]> {
      const now = deps.now();
      return (await endpoints.list(businessId)).map((row) => toEndpoint(row, now));
    },
    async remove(businessId: number, id: string): Promise<void> {
      const removed = await store.transaction(() => endpoints.remove(businessId, id));
      if (!removed) throw new AppError('not_found', 'No webhook endpoint with this id.');
    },
    async rotate(businessId: number, id: string): Promise<WebhookWithSecret> {
      const before = await mustGet(businessId, id);
      const at = deps.now();
      const secret = newWebhookSecret();
      // The current secret becomes the previous one, sealed for its new place.
      const previous = box.seal(box.open(before.secret, id), `${id}:previous`);
      const row = await endpoints.rotate(
        businessId,
        id,
        { secret: box.seal(secret, id), previous },
        at + WEBHOOK_ROTATION_OVERLAP_MS,
      );
      if (!row) throw new AppError('not_found', 'No webhook endpoint with this id.');
      return { ...toEndpoint(row, at), secret };
    },
    async resume(businessId: number, id: string): Promise<WebhookEndpoint> {
      const row = await endpoints.resume(businessId, id);
      if (!row) throw new AppError('not_found', 'No webhook endpoint with this id.');
      deps.wake();
      return toEndpoint(row, deps.now());
    },
    /** A `webhook.test` event to this endpoint alone; its delivery is in the log like any other. */
    async test(businessId: number, id: string): Promise<WebhookDelivery> {
      const row = await mustGet(businessId, id);
      const at = deps.now();
      const event = eventBody(
        WEBHOOK_TEST_EVENT,
        { endpointId: row.id, message: 'A test event from Review Desk.' },
        at,
      );
      await outbox.recordTo(row, event, at);
      deps.wake();
      const { rows } = await outbox.log(row.id, 1, 0);
      return toDeliveryView(rows[0]!);
    },
    async deliveries(businessId: number, id: string, page: number, limit: number) {
      await mustGet(businessId, id);
      const { total, rows } = await outbox.log(id, limit, (page - 1) * limit);
      return { page, limit, total, deliveries: rows.map(toDeliveryView) };
    },
    /** "Send again": the same event (same webhook-id, same body), attempted now. */
    async resend(businessId: number, id: string, deliveryId: number): Promise<WebhookDelivery> {
      await mustGet(businessId, id);
      const row = await outbox.resend(id, deliveryId, deps.now());
      if (!row) {
        if (await outbox.get(id, deliveryId)) throw new AppError('webhook_delivery_busy');
        throw new AppError('not_found', 'No delivery with this id.');
      }
      deps.wake();
      return toDeliveryView(row);
    },
  };
}
export type Webhooks = ReturnType<typeof createWebhooks>;
