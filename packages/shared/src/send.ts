import { CHANNEL_REQUIRES, CHANNEL_SENDS_BY, channelSchema, DEFAULT_CHANNEL } from './channels.ts';
import { CUSTOMER_NAME_WEB_ADDRESS_MESSAGE, cleanCustomerName, holdsWebAddress } from './customer-name.ts';
import { CUSTOMER_EMAIL_MAX, CUSTOMER_NAME_MAX } from './limits.ts';
import { checkPhone } from './phone.ts';
import { delayMinutesSchema, externalIdSchema, SEND_LATER_MESSAGES, sendAtSchema } from './send-later.ts';
import { z } from './zod.ts';

// POST /api/v1/requests/send (docs/api.md, "Sending").

export {
  CHANNEL_REQUIRES,
  CHANNEL_SENDS_BY,
  CHANNELS,
  type Channel,
  channelSchema,
  channelSendsMessage,
  DEFAULT_CHANNEL,
  messagedContacts,
} from './channels.ts';
export { LINK_CREATED } from './link-created.ts';

/**
 * What the send form calls each field. Every message about a field names it so (a person reads
 * it); the field's code name stays in the 400's `fields` for programs.
 */
export const SEND_FIELD_LABELS = {
  customerName: 'Customer name',
  customerPhone: 'Phone number',
  customerEmail: 'Customer email',
  channel: 'Channel',
} as const;
const LABEL = SEND_FIELD_LABELS;

/** Optional text field: blank or whitespace-only counts as absent, so forms can send "". */
const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * The name as messages will carry it: controls, bidi and zero-width characters removed, spaces
 * collapsed (customer-name.ts says why), at most CUSTOMER_NAME_MAX characters, and no web
 * address in it.
 */
export const customerNameSchema = /* @__PURE__ */ z.pipe(
  z.pipe(z.string({ error: `${LABEL.customerName} must be text` }), z.transform(cleanCustomerName)),
  /* @__PURE__ */ z.string().check(
    z.maxLength(CUSTOMER_NAME_MAX, {
      error: `${LABEL.customerName} must be at most ${CUSTOMER_NAME_MAX} characters`,
    }),
    z.refine((name) => !holdsWebAddress(name), { error: CUSTOMER_NAME_WEB_ADDRESS_MESSAGE }),
  ),
);

export const customerPhoneSchema = /* @__PURE__ */ z.pipe(
  z.string({ error: `${LABEL.customerPhone} must be text` }),
  z.transform((value: string, ctx) => {
    const result = checkPhone(value);
    if (!result.ok) {
      ctx.issues.push({ code: 'custom', message: `${LABEL.customerPhone} ${result.reason}`, input: value });
      return z.NEVER;
    }
    return result.e164;
  }),
);

export const customerEmailSchema = /* @__PURE__ */ z.pipe(
  z.pipe(
    /* @__PURE__ */ z.string({ error: `${LABEL.customerEmail} must be text` }).check(
      z.trim(),
      z.maxLength(CUSTOMER_EMAIL_MAX, {
        error: `${LABEL.customerEmail} must be at most ${CUSTOMER_EMAIL_MAX} characters`,
      }),
    ),
    z.email({ error: `${LABEL.customerEmail} must be a valid email address, e.g. name@example.com` }),
  ),
  // One contact, one spelling: the frequency cap and opt-outs compare lower-cased addresses.
  z.transform((value: string) => value.toLowerCase()),
);

/** An optional field whose blank value (after `blank`) counts as not given. */
const blankIsUnset = <T extends z.core.$ZodType>(blank: (value: unknown) => unknown, schema: T) =>
  z.optional(z.pipe(z.transform(blank), z.optional(schema)));

const sendRequestObject = /* @__PURE__ */ z.strictObject({
  // A name of nothing but invisible characters is no name.
  customerName: blankIsUnset(
    (value) => blankToUndefined(typeof value === 'string' ? cleanCustomerName(value) : value),
    customerNameSchema,
  ),
  customerPhone: blankIsUnset(blankToUndefined, customerPhoneSchema),
  /** The API leaves this field's name open; `customerEmail` is the real service's name. */
  customerEmail: blankIsUnset(blankToUndefined, customerEmailSchema),
  channel: z._default(channelSchema, DEFAULT_CHANNEL),
  // Sending later (send-later.ts): a time or a delay, and the sale it follows.
  sendAt: z.optional(sendAtSchema),
  delayMinutes: z.optional(delayMinutesSchema),
  externalId: z.optional(externalIdSchema),
});

/** The message on a missing phone or email: what the channel needs, in the form's words. */
export const requiredFor = (
  field: 'customerPhone' | 'customerEmail',
  channel: keyof typeof CHANNEL_SENDS_BY,
) => `${LABEL[field]} is required to send by ${CHANNEL_SENDS_BY[channel]}`;

/**
 * The send body, validated and normalised: phone → E.164, email → trimmed lower case, name →
 * visible characters only, single-spaced and trimmed. Unknown fields are rejected. Channel rules 1–3 put their message on the missing field.
 */
export const sendRequestSchema = sendRequestObject.check(
  z.superRefine((body, ctx) => {
    const needs = CHANNEL_REQUIRES[body.channel];
    if (!needs) return; // an invalid channel already has its own issue
    if (needs.phone && body.customerPhone === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['customerPhone'],
        message: requiredFor('customerPhone', body.channel),
      });
    }
    if (needs.email && body.customerEmail === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['customerEmail'],
        message: requiredFor('customerEmail', body.channel),
      });
    }
    const later =
      body.sendAt !== undefined ? 'sendAt' : body.delayMinutes !== undefined ? 'delayMinutes' : null;
    if (body.sendAt !== undefined && body.delayMinutes !== undefined)
      ctx.addIssue({ code: 'custom', path: ['delayMinutes'], message: SEND_LATER_MESSAGES.both });
    else if (later && body.channel === 'link')
      ctx.addIssue({ code: 'custom', path: [later], message: SEND_LATER_MESSAGES.link });
  }),
);
/** What a caller writes. */
export type SendRequestInput = z.input<typeof sendRequestSchema>;
/** What the service acts on (normalised). */
export type SendRequest = z.output<typeof sendRequestSchema>;

/**
 * The result of sending (docs/api.md, "The send's answer"). `status` is an open string: the API
 * names only `sent` ("not a delivery receipt and not proof that a review was published"); clients
 * must show values they do not know. Unknown fields are kept.
 */
export const sendResultSchema = /* @__PURE__ */ z.looseObject({
  requestId: z.string(),
  status: z.string(),
  channel: z.string(),
  reviewLink: z.string(),
  warning: z.optional(z.string()),
  /**
   * Our extension: with status `scheduled`, when the message goes out (ISO 8601): it was asked
   * for outside the business's sending hours (docs/api.md, "Quiet hours").
   */
  scheduledFor: z.optional(z.string()),
  /**
   * Our extension: true when the body's `externalId` had already made a request for this business:
   * the answer names that request (`requestId`, its status now) and nothing was sent again.
   */
  existing: z.optional(z.boolean()),
});
export type SendResult = z.infer<typeof sendResultSchema>;

/** The status our service answers when a request was created and at least one delivery accepted. */
export const SEND_STATUS_SENT = 'sent';
/** Asked for outside the business's sending hours: held until they open (`scheduledFor`). */
export const SEND_STATUS_SCHEDULED = 'scheduled';
/** The carrier did not answer in time: the message may have gone out; it is never resent. */
export const SEND_STATUS_UNKNOWN = 'unknown';

/** Honest words for the statuses clients show. Unknown values are shown as they are. */
export const SEND_STATUS_MEANINGS: Record<string, string> = {
  sent: 'Accepted for delivery. Not a delivery receipt, and not a review.',
  scheduled:
    'Accepted and held: it goes out at the time it was asked for, inside the business’s sending hours.',
  unknown:
    'Outcome unknown: the carrier did not answer in time, so the message may have gone out. Check recent requests before sending again.',
};

/**
 * What a send means, as text in a fixed order: two spellings of one intent (a phone with spaces,
 * an email in capitals, a name with padding) give the same text once validated. The dashboard
 * reuses an Idempotency-Key while its form's intent is unchanged; the BFF journals a hash of it
 * and refuses a key reused for another intent (docs/bff.md, "The send journal").
 */
export function sendIntent(send: SendRequest): string {
  const intent: unknown[] = [
    send.channel,
    send.customerName ?? null,
    send.customerPhone ?? null,
    send.customerEmail ?? null,
  ];
  // Only when asked for: an intent of the fields above reads as it always did.
  if (send.sendAt !== undefined || send.delayMinutes !== undefined || send.externalId !== undefined)
    intent.push(send.sendAt ?? null, send.delayMinutes ?? null, send.externalId ?? null);
  return JSON.stringify(intent);
}
