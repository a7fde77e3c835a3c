import { pageOf, pagingParams } from './paging.ts';
import { searchParamsOf } from './query.ts';
import { HOUR_MS, MINUTE_MS, SECOND_MS } from './time.ts';
import { z } from './zod.ts';

// Events out (docs/api.md, "Webhooks"): a business's endpoints, the events they subscribe to, and
// each delivery's log. Signed by Standard Webhooks (webhook-id, webhook-timestamp,
// webhook-signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, secrets `whsec_…`), so any
// of its libraries verifies them.

export const WEBHOOKS_SCOPE = 'webhooks:write';

export const WEBHOOK_EVENT_TYPES = [
  'review.created',
  'review.updated',
  'request.sent',
  'request.delivered',
  'request.failed',
  'request.completed',
  'contact.opted_out',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The event "Send a test event" sends, to that one endpoint whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** What each event means, in the words the Settings page and docs/api.md use. */
export const WEBHOOK_EVENT_WORDS: Record<WebhookEventType, string> = {
  'review.created': 'A customer left a review through a request’s page.',
  'review.updated': 'A review’s rating, status or reply changed.',
  'request.sent': 'A request was handed to its carriers (not a delivery receipt).',
  'request.delivered': 'A carrier reported a request’s message delivered (not proof it was read).',
  'request.failed': 'Nothing of a request went out, or a carrier could not deliver a message.',
  'request.completed':
    'A customer left feedback or went on to the public review site (not proof of a review).',
  'contact.opted_out': 'A customer asked not to be contacted again (the page’s link, or STOP).',
};

/** Endpoints one business may have. */
export const WEBHOOK_ENDPOINTS_MAX = 10;
export const WEBHOOK_URL_MAX = 2000;
/** How long one delivery may take before it counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 5 * SECOND_MS;
/**
 * The waits between attempts of one event (Standard Webhooks' example schedule): about three days
 * from the first attempt to the last. After the last failure the endpoint is paused.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5 * SECOND_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  5 * HOUR_MS,
  10 * HOUR_MS,
  14 * HOUR_MS,
  20 * HOUR_MS,
  24 * HOUR_MS,
] as const;
/** Attempts of one event at most: the first and one per wait. */
export const WEBHOOK_ATTEMPTS_MAX = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/** How long the old secret keeps signing beside the new one after a rotation. */
export const WEBHOOK_ROTATION_OVERLAP_MS = 24 * HOUR_MS;
/** How long the delivery log keeps an event. */
export const WEBHOOK_LOG_DAYS = 30;
/** How far a receiver should accept webhook-timestamp from its own clock (the libraries' default). */
export const WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS = 300;

export const WEBHOOK_ID_PATTERN = /^we_[A-Za-z0-9_-]{1,40}$/;
export const WEBHOOK_DELIVERY_ID_PATTERN = /^[0-9]{1,15}$/;

export const WEBHOOK_PATHS = {
  list: '/api/v1/webhooks',
  one: '/api/v1/webhooks/:id',
  rotate: '/api/v1/webhooks/:id/rotate',
  resume: '/api/v1/webhooks/:id/resume',
  test: '/api/v1/webhooks/:id/test',
  deliveries: '/api/v1/webhooks/:id/deliveries',
  resend: '/api/v1/webhooks/:id/deliveries/:delivery/resend',
} as const;

/** A path of WEBHOOK_PATHS with its ids filled in (percent-encoded). */
export function webhookPath(path: string, id: string, delivery?: string): string {
  return path.replace(':id', encodeURIComponent(id)).replace(':delivery', encodeURIComponent(delivery ?? ''));
}

export const WEBHOOK_MESSAGES = {
  url: 'url must be an https:// address of at most 2000 characters, without user name or password',
  events: `events must name at least one of ${WEBHOOK_EVENT_TYPES.join(', ')}, each once`,
  limit: `A business may have at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints`,
} as const;

/** An https URL with a host and no credentials; where it points is checked again at each delivery. */
export const webhookUrlSchema = /* @__PURE__ */ z.string({ error: WEBHOOK_MESSAGES.url }).check(
  z.trim(),
  z.maxLength(WEBHOOK_URL_MAX, { error: WEBHOOK_MESSAGES.url }),
  z.refine(
    (value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
    },
    { error: WEBHOOK_MESSAGES.url },
  ),
);

export const webhookEventsSchema = /* @__PURE__ */ z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: WEBHOOK_MESSAGES.events }), { error: WEBHOOK_MESSAGES.events })
  .check(
    z.minLength(1, { error: WEBHOOK_MESSAGES.events }),
    z.maxLength(WEBHOOK_EVENT_TYPES.length, { error: WEBHOOK_MESSAGES.events }),
    z.refine((events) => new Set(events).size === events.length, { error: WEBHOOK_MESSAGES.events }),
  );

/** POST /api/v1/webhooks. */
export const webhookCreateSchema = /* @__PURE__ */ z.strictObject({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
});
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

export const WEBHOOK_STATES = ['active', 'paused'] as const;

export const webhookEndpointSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  /** `paused`: nothing is delivered until it is resumed; events are still logged. */
  state: z.enum(WEBHOOK_STATES),
  pausedAt: z.nullable(z.string()),
  /** Why it was paused, in words (the last failure's). */
  pausedReason: z.nullable(z.string()),
  createdAt: z.string(),
  /** Until when the secret before the last rotation still signs beside the new one; null: none. */
  previousSecretUntil: z.nullable(z.string()),
  /** The last delivery that succeeded, and the last that failed (ISO 8601); null: none yet. */
  lastSuccessAt: z.nullable(z.string()),
  lastFailureAt: z.nullable(z.string()),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The answer of a create and of a rotation: the secret, shown this once. */
export const webhookSecretSchema = /* @__PURE__ */ z.extend(webhookEndpointSchema, { secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookSecretSchema>;

export const webhookListSchema = /* @__PURE__ */ z.object({ webhooks: z.array(webhookEndpointSchema) });

/**
 * One event's delivery to one endpoint. pending — waiting for its next attempt; delivered — the
 * endpoint answered 2xx; failed — every attempt failed, or the endpoint was removed or paused.
 */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivering', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

export const webhookDeliverySchema = /* @__PURE__ */ z.object({
  id: z.string(),
  /** The event's id: the webhook-id header, the same on every attempt. */
  eventId: z.string(),
  type: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().check(z.int()),
  /** The endpoint's last HTTP status; null when it never answered (timeout, refused address). */
  lastStatus: z.nullable(z.number().check(z.int())),
  lastError: z.nullable(z.string()),
  createdAt: z.string(),
  lastAttemptAt: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.string()),
  deliveredAt: z.nullable(z.string()),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesQuerySchema = /* @__PURE__ */ z.strictObject({ ...pagingParams() });
export const webhookDeliveriesSearchParams = /* @__PURE__ */ searchParamsOf(webhookDeliveriesQuerySchema);
export const webhookDeliveryListSchema = /* @__PURE__ */ pageOf('deliveries', webhookDeliverySchema);
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

/** What an event's body holds (Standard Webhooks' payload structure): `data` is the resource. */
export type WebhookEvent<T = unknown> = { id: string; type: string; timestamp: string; data: T };

/** `contact.opted_out`'s data: whose contact, and how they said so. */
export const OPT_OUT_SOURCES = ['review_page', 'sms_stop', 'carrier'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];
export type ContactOptedOut = {
  phone: string | null;
  email: string | null;
  /** review_page — the page's "Don't contact me again"; sms_stop — STOP texted; carrier — the carrier refused as opted out. */
  source: OptOutSource;
  /** The request whose page or message it came through, when known. */
  requestId: string | null;
};
