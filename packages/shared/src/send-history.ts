import { pageOf, pagingParams } from './paging.ts';
import { DAY_MS } from './time.ts';
import { z } from './zod.ts';

// The BFF's send journal as the dashboard reads it (GET /bff/sends): each send's outcome, who it
// went to and who sent it; and the key that makes a send happen at most once per intent.

export const idempotencyKeySchema = /* @__PURE__ */ z.uuid({ error: 'Idempotency-Key must be a UUID' });

/**
 * Outcome of a send as the BFF journal knows it:
 * in_flight — forwarded, no answer yet; sent — accepted by the upstream; warning — accepted with
 * a delivery warning; failed — refused or every delivery failed (nothing went out); unknown —
 * timeout or connection lost after the request left: a request may have been sent.
 */
export const SEND_OUTCOMES = ['in_flight', 'sent', 'warning', 'failed', 'unknown'] as const;
export type SendOutcome = (typeof SEND_OUTCOMES)[number];

export const sendHistoryQuerySchema = /* @__PURE__ */ z.strictObject({
  ...pagingParams(),
  /** A phone number (any format the send form accepts) or an email address; matched after normalising. */
  contact: z.optional(
    /* @__PURE__ */ z
      .string({ error: 'Contact must be given once' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'Contact must not be empty' }),
        z.maxLength(320, { error: 'Contact must be at most 320 characters' }),
      ),
  ),
  /** Where a phone number written without + is from (ISO 3166 code, e.g. US): the searcher's country. */
  country: z.optional(
    /* @__PURE__ */ z
      .string({ error: 'Country must be given once' })
      .check(z.regex(/^[A-Z]{2}$/, { error: 'Country must be a two-letter country code, e.g. US' })),
  ),
});
export type SendHistoryQuery = z.output<typeof sendHistoryQuerySchema>;

/** Who a send went to, as the dashboard lists it: the customer's name and the masked contact. */
export const recipientFields = {
  customerName: z.nullable(z.string()),
  /** Masked phone and/or email, e.g. "+1 ••• ••• 2671", "a•••@example.com". */
  contact: z.string(),
};

export const sendHistoryEntrySchema = /* @__PURE__ */ z.object({
  id: z.string(),
  createdAt: z.string(),
  finishedAt: z.nullable(z.string()),
  sentBy: z.string(),
  channel: z.string(),
  ...recipientFields,
  outcome: z.enum(SEND_OUTCOMES),
  httpStatus: z.nullable(/* @__PURE__ */ z.number().check(z.int())),
  requestId: z.nullable(z.string()),
  status: z.nullable(z.string()),
  reviewLink: z.nullable(z.string()),
  warning: z.nullable(z.string()),
  error: z.nullable(z.string()),
});
export type SendHistoryEntry = z.infer<typeof sendHistoryEntrySchema>;

export const sendHistorySchema = /* @__PURE__ */ pageOf('sends', sendHistoryEntrySchema);
export type SendHistory = z.infer<typeof sendHistorySchema>;

/** Honest words for each outcome, for badges and the result panel. */
export const SEND_OUTCOME_MEANINGS: Record<SendOutcome, string> = {
  in_flight: 'Being sent: no answer from the service yet.',
  sent: 'Accepted for delivery. Not a delivery receipt, and not a review.',
  warning: 'Accepted, but a delivery failed: read the warning.',
  failed: 'Not sent: the service refused the request or every delivery failed.',
  unknown:
    'Outcome unknown: the connection was lost after the request left, so a request may have been sent. Check before sending again.',
};

/**
 * Outcomes the service counts against its frequency cap: it accepted the request. A refused or
 * failed send reached nobody; an unknown one may or may not have.
 */
export const CAPPED_OUTCOMES: readonly SendOutcome[] = ['sent', 'warning'];

/**
 * When a contact sent a request at `sentAt` may be asked again: the service refuses another
 * request to them for `capDays` days (docs/api.md, "Frequency cap").
 */
export function askAgainFrom(sentAt: string, capDays: number): Date {
  return new Date(Date.parse(sentAt) + capDays * DAY_MS);
}
