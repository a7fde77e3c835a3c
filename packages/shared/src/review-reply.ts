import { channelSchema } from './channels.ts';
import { REPLY_TEXT_MAX } from './limits.ts';
import { intParam } from './query.ts';
import { type ReviewStatus, reviewSchema } from './reviews.ts';
import { z } from './zod.ts';

// Answering a review, an extension of the API (docs/api.md, "Answering reviews"): one review read
// alone, the business's reply created, replaced or withdrawn, and its status changed between
// pending and ignored. Clients must not require it: another deployment answers 404.
//
// Where a reply goes depends on where the review came from: a review left through our own
// customer page is answered privately, to the customer, by the channel their request used; a
// Google review is answered on Google. A reply's state says how far it got.

export const REPLY_SCOPE = 'reviews:reply';

export const REVIEW_ENDPOINTS = {
  one: { method: 'GET', path: '/api/v1/reviews/:id', scope: 'reviews:read' },
  status: { method: 'PATCH', path: '/api/v1/reviews/:id', scope: REPLY_SCOPE },
  reply: { method: 'POST', path: '/api/v1/reviews/:id/reply', scope: REPLY_SCOPE },
  withdraw: { method: 'DELETE', path: '/api/v1/reviews/:id/reply', scope: REPLY_SCOPE },
} as const;

/** What a review's id looks like on our service (`rev_<n>`): the routes answer anything else 404. */
export const REVIEW_ID_PATTERN = /^rev_[1-9][0-9]{0,15}$/;

export function reviewPath(id: string): string {
  return `/api/v1/reviews/${encodeURIComponent(id)}`;
}
export function reviewReplyPath(id: string): string {
  return `${reviewPath(id)}/reply`;
}

/** The name of whoever answered, as the caller gives it (the dashboard: the user's email). */
export const RESPONDED_BY_MAX = 200;

// Plain text: line breaks and tabs, no other control characters (an email, an SMS and Google all
// take plain text).
function plainText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 127) return false;
  }
  return true;
}

export const replyTextSchema = /* @__PURE__ */ z
  .string({ error: 'text is required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'text must not be empty' }),
    z.maxLength(REPLY_TEXT_MAX, { error: `text must be at most ${REPLY_TEXT_MAX} characters` }),
    z.refine(plainText, { error: 'text must be plain text (no control characters)' }),
  );

/**
 * The version the caller read (GET one review, or a 409's `current`). Given: the change applies
 * only if nobody changed the review since. Left out: a reply applies only to a review that has
 * none yet (nothing to overwrite), and a status change or a withdrawal applies to the review as
 * it is now.
 */
const versionSchema = z
  .number({ error: 'version must be a whole number' })
  .check(
    z.int({ error: 'version must be a whole number' }),
    z.gte(0, { error: 'version must be a whole number' }),
  );

const respondedBySchema = z
  .string({ error: 'respondedBy must be text' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'respondedBy must not be empty' }),
    z.maxLength(RESPONDED_BY_MAX, { error: `respondedBy must be at most ${RESPONDED_BY_MAX} characters` }),
  );

/** POST /api/v1/reviews/{id}/reply. */
export const replyBodySchema = /* @__PURE__ */ z.strictObject({
  text: replyTextSchema,
  version: z.optional(versionSchema),
  respondedBy: z.optional(respondedBySchema),
});
export type ReplyBody = z.output<typeof replyBodySchema>;

/** PATCH /api/v1/reviews/{id}: only `ignored` and `pending` (a reply is what makes `responded`). */
export const STATUS_CHANGES = ['ignored', 'pending'] as const;
export const statusBodySchema = /* @__PURE__ */ z.strictObject({
  status: z.enum(STATUS_CHANGES, { error: `status must be one of ${STATUS_CHANGES.join(', ')}` }),
  version: z.optional(versionSchema),
});
export type StatusBody = z.output<typeof statusBodySchema>;

/** DELETE /api/v1/reviews/{id}/reply?version=N (no body). */
export const withdrawQuerySchema = /* @__PURE__ */ z.strictObject({
  version: z.optional(intParam('version', 0, 2 ** 31)),
});

/**
 * The transitions (the API reference shows none; docs/api.md, "Answering reviews"). Anything
 * else is a 409 `transition_refused`, except asking for the status a review already has, which
 * changes nothing and answers 200 (a retry after a lost answer must not fail).
 */
export const REVIEW_TRANSITIONS = {
  reply: { from: ['pending', 'responded', 'ignored'], to: 'responded' },
  withdraw: { from: ['responded'], to: 'pending' },
  ignore: { from: ['pending'], to: 'ignored' },
  reopen: { from: ['ignored'], to: 'pending' },
} as const satisfies Record<string, { from: readonly ReviewStatus[]; to: ReviewStatus }>;
export type ReviewAction = keyof typeof REVIEW_TRANSITIONS;

/** Whether `action` applies to a review in `status`. */
export function transitionAllowed(action: ReviewAction, status: ReviewStatus): boolean {
  return (REVIEW_TRANSITIONS[action].from as readonly ReviewStatus[]).includes(status);
}

/** Who a reply is for: the customer privately (our own page's reviews), or the public on Google. */
export const REPLY_DESTINATIONS = ['customer', 'google'] as const;
export type ReplyDestination = (typeof REPLY_DESTINATIONS)[number];

/**
 * How far a reply (or a withdrawal) got. To the customer: sending → sent (handed to the carrier:
 * its receipts are the request's), scheduled (held for sending hours), opted_out and no_contact
 * (saved, not sent), failed (saved; every delivery failed), unknown (the service stopped while
 * handing it over). On Google: posting → posted, failed (Google refused: the review stays as it
 * was), unknown (the answer was lost: Google may or may not have it). A withdrawal: withdrawn.
 */
export const REPLY_STATES = [
  'sending',
  'sent',
  'scheduled',
  'opted_out',
  'no_contact',
  'posting',
  'posted',
  'withdrawn',
  'failed',
  'unknown',
] as const;
export type ReplyState = (typeof REPLY_STATES)[number];

/** States whose call is still under way: another change waits (409 reply_in_flight). */
export const REPLY_IN_FLIGHT: readonly ReplyState[] = ['sending', 'posting'];

export const replyOutcomeSchema = /* @__PURE__ */ z.object({
  action: z.enum(['reply', 'withdraw']),
  to: z.enum(REPLY_DESTINATIONS),
  state: z.enum(REPLY_STATES),
  /** The channel of the customer's request (sms, email, both); null on Google. */
  channel: z.nullable(channelSchema),
  text: z.nullable(z.string()),
  by: z.nullable(z.string()),
  /** Why it failed or is unknown, in the carrier's or Google's words; else null. */
  error: z.nullable(z.string()),
  /** When a held reply goes out (ISO 8601); else null. */
  scheduledFor: z.nullable(z.string()),
  at: z.string(),
});
export type ReplyOutcome = z.infer<typeof replyOutcomeSchema>;

/** GET /api/v1/reviews/{id}, and the answer to every change: the review as it now is. */
export const reviewDetailSchema = /* @__PURE__ */ z.extend(reviewSchema, {
  responded_at: z.nullable(z.string()),
  responded_by: z.nullable(z.string()),
  /** Changes with every change of the review: send it back to change it (no lost updates). */
  version: z.number().check(z.int(), z.nonnegative()),
  source: z.object({
    platform: z.string(),
    /** The request the review was left through (our own page), and its channel. */
    requestId: z.nullable(z.string()),
    channel: z.nullable(channelSchema),
  }),
  /** The latest reply or withdrawal and how far it got; null when nobody answered here. */
  reply: z.nullable(replyOutcomeSchema),
});
export type ReviewDetail = z.infer<typeof reviewDetailSchema>;

/**
 * The dashboard's journal of who answered what (GET /bff/review-actions?review=<id>): each change
 * a user asked for, and how it went.
 */
export const REVIEW_ACTIONS = ['reply', 'withdraw', 'ignore', 'reopen'] as const;
export const reviewActionSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  at: z.string(),
  by: z.string(),
  action: z.enum(REVIEW_ACTIONS),
  text: z.nullable(z.string()),
  /** done — the service answered; refused — it said no; unknown — the answer was lost; in_flight — not yet. */
  outcome: z.enum(['in_flight', 'done', 'refused', 'unknown']),
  replyState: z.nullable(z.enum(REPLY_STATES)),
  error: z.nullable(z.string()),
});
export type ReviewActionEntry = z.infer<typeof reviewActionSchema>;
export const reviewActionsSchema = /* @__PURE__ */ z.object({ actions: z.array(reviewActionSchema) });
export const BFF_REVIEW_ACTIONS_PATH = '/bff/review-actions';

/** What the dashboard sends for a reply: the BFF names who answered (the signed-in user). */
export const bffReplyBodySchema = /* @__PURE__ */ z.omit(replyBodySchema, { respondedBy: true });
