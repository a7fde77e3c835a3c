import { CHANNELS, channelSchema } from './channels.ts';
import { pageOf, pagingParams } from './paging.ts';
import { oneOfParam, searchParamsOf } from './query.ts';
import { z } from './zod.ts';

// Reading review requests back: GET /api/v1/requests and GET /api/v1/requests/{id}, an extension
// of the API (docs/api.md, "Reading requests back"). Clients must not require it: another
// deployment answers 404, and the dashboard then keeps its own send journal's view.

export const READ_REQUESTS_SCOPE = 'review_requests:read';

/** The extension's reads, apart from the three operations every deployment has (scopes.ts). */
export const REQUEST_ENDPOINTS = {
  list: { method: 'GET', path: '/api/v1/requests', scope: READ_REQUESTS_SCOPE },
  /** `:id` is the send's `requestId`. */
  one: { method: 'GET', path: '/api/v1/requests/:id', scope: READ_REQUESTS_SCOPE },
  /** Cancels a request still held for later (status `scheduled`); the sender's scope. */
  cancel: { method: 'DELETE', path: '/api/v1/requests/:id', scope: 'review_requests:write' },
} as const;

/** The path of one request; the id is percent-encoded (a requestId is URL-safe, others may not be). */
export function requestPath(id: string): string {
  return `${REQUEST_ENDPOINTS.list.path}/${encodeURIComponent(id)}`;
}

/** What a request's id looks like on our service (apps/api ids.ts): the route refuses anything else with 404. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The state of one message (a leg: the SMS or the email of a request), as far as anyone knows.
 * scheduled — held for the business's sending hours; queued — handed to the carrier, not yet out;
 * sent — the carrier passed it on (not a delivery receipt); delivered — the carrier reports it
 * reached the phone or mail server; undelivered — the carrier could not deliver it; failed — it
 * never left (refused before the network); unknown — the carrier did not answer in time, so it
 * may or may not have gone out (never retried automatically).
 */
export const LEG_STATES = [
  'scheduled',
  'queued',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'unknown',
] as const;
export type LegState = (typeof LEG_STATES)[number];
export const legStateSchema = /* @__PURE__ */ z.enum(LEG_STATES);

/** The states a receipt can no longer move a leg out of (a late `sent` never undoes `delivered`). */
export const FINAL_LEG_STATES: readonly LegState[] = ['delivered', 'undelivered', 'failed'];

/**
 * How far along each state is. A receipt only ever moves a leg forward: receipts arrive out of
 * order and are retried, so one that ranks at or below the current state changes nothing.
 * `unknown` ranks lowest after `scheduled`: any receipt for the message is better knowledge.
 */
export const LEG_STATE_RANK: Record<LegState, number> = {
  scheduled: 0,
  unknown: 1,
  queued: 2,
  sent: 3,
  delivered: 4,
  undelivered: 4,
  failed: 4,
};

/** Whether a receipt saying `next` may replace what is recorded as `current`. */
export function legStateAdvances(current: LegState, next: LegState): boolean {
  if (FINAL_LEG_STATES.includes(current)) return false;
  return LEG_STATE_RANK[next] > LEG_STATE_RANK[current];
}

/**
 * The status of a whole request. scheduled — held for its time or the sending hours; sending —
 * being handed to the carriers; sent — at least one message accepted (not a delivery receipt);
 * failed — nothing went out; unknown — the outcome of its only message(s) is unknown; cancelled —
 * cancelled while it was held, so nothing went out.
 */
export const REQUEST_STATUSES = ['scheduled', 'sending', 'sent', 'failed', 'unknown', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const requestStatusSchema = /* @__PURE__ */ z.enum(REQUEST_STATUSES, {
  error: `status must be one of ${REQUEST_STATUSES.join(', ')}`,
});

export const LEG_CHANNELS = ['sms', 'email'] as const;
export type LegChannel = (typeof LEG_CHANNELS)[number];

/**
 * What a leg is for: `request`, a message of the send; `reminder`, the one automatic reminder
 * sent later for the same request (docs/settings.md); `reply`, the business's private answer to
 * the review the customer left (docs/api.md, "Answering reviews"). Another deployment may not
 * say: a leg without a kind is the send's own.
 */
export const LEG_KINDS = ['request', 'reminder', 'reply'] as const;
export type LegKind = (typeof LEG_KINDS)[number];

export const requestLegSchema = /* @__PURE__ */ z.object({
  channel: z.enum(LEG_CHANNELS),
  kind: z.optional(z.enum(LEG_KINDS)),
  /** Who carries it: `twilio`, `smtp`, `outbox`. */
  provider: z.string(),
  state: legStateSchema,
  /** The carrier's reason in words, for failed, undelivered and unknown; else null. */
  error: z.nullable(z.string()),
  /** When the state last changed (ISO 8601). */
  updatedAt: z.string(),
});
export type RequestLeg = z.infer<typeof requestLegSchema>;

export const requestRecordSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  channel: channelSchema,
  status: requestStatusSchema,
  createdAt: z.string(),
  /** When a request held for sending hours goes out (ISO 8601); null when it was not held. */
  scheduledFor: z.nullable(z.string()),
  clicked: z.boolean(),
  completed: z.boolean(),
  optedOut: z.boolean(),
  legs: z.array(requestLegSchema),
  /** The sale, visit or invoice the request follows, as its sender named it; null when none. */
  externalId: z.optional(z.nullable(z.string())),
  /**
   * A request no one sent by hand: where its contact came from (`square`, and the payment's id).
   * Null for requests a person or a caller of the API sent.
   */
  automatic: z.optional(z.nullable(z.object({ source: z.string(), id: z.string() }))),
});
export type RequestRecord = z.infer<typeof requestRecordSchema>;

/** Query of GET /api/v1/requests: paged and filtered like the review list; newest first. */
export const requestsQuerySchema = /* @__PURE__ */ z.strictObject({
  ...pagingParams(),
  status: oneOfParam('status', REQUEST_STATUSES, requestStatusSchema),
  channel: oneOfParam('channel', CHANNELS, channelSchema),
});
export type RequestsQuery = z.output<typeof requestsQuerySchema>;

export const requestsSearchParams = /* @__PURE__ */ searchParamsOf(requestsQuerySchema);

export const requestListSchema = /* @__PURE__ */ pageOf('requests', requestRecordSchema);
export type RequestList = z.infer<typeof requestListSchema>;

/**
 * The words the dashboard shows for each leg state, and what they mean. Honest words: `sent` is
 * not delivery, `delivered` is not a review, `unknown` may have gone out.
 */
export const LEG_STATE_WORDS: Record<LegState, { label: string; meaning: string }> = {
  scheduled: {
    label: 'Scheduled',
    meaning:
      'Asked for outside the business’s sending hours: held, and sent once when they open (the time is shown).',
  },
  queued: {
    label: 'Queued at carrier',
    meaning: 'Handed to the carrier, which has not passed it on yet.',
  },
  sent: {
    label: 'Sent to carrier',
    meaning:
      'The carrier passed it on towards the phone or mail server. Not a delivery receipt: most messages are delivered moments later, some never are.',
  },
  delivered: {
    label: 'Delivered',
    meaning:
      'The carrier reports it reached the customer’s phone (or mail server). Not proof it was read, nor that a review was left.',
  },
  undelivered: {
    label: 'Not delivered',
    meaning: 'The carrier tried and could not deliver it; its reason is shown. Nothing reached the customer.',
  },
  failed: {
    label: 'Not sent',
    meaning: 'It never left: refused before reaching the network (the reason is shown).',
  },
  unknown: {
    label: 'Unknown',
    meaning:
      'The carrier did not answer in time, so it may or may not have gone out. It is never retried automatically: check with the customer before sending again.',
  },
};
