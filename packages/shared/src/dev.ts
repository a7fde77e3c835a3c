import { z } from './zod.ts';

// Facts of the embedded service's development features that tests and the start script rely on.

/** The business `SEED_DEMO=1` creates, and whose key the local BFF uses. */
export const DEMO_BUSINESS = { slug: 'demo', name: 'Harbour Street Coffee' } as const;

// The embedded service's `outbox` delivery provider stores each message instead of handing it
// to a carrier; with DEV_OUTBOX=1 they are listed at /dev/outbox (HTML) and /dev/outbox.json
// (success envelope, newest first). Its fault hooks are deterministic so tests can rely on them.

export const OUTBOX_FAULTS = {
  /** An SMS to a phone number ending in these digits fails (the carrier refuses it). */
  smsFailsWhenPhoneEndsWith: '0000',
  /** An email to an address at this domain bounces. */
  emailBouncesAtDomain: 'fail.example',
} as const;

export const outboxMessageSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  /** The review request's id; for a settings test (`test: true`), `test_<n>`: no request was made. */
  requestId: z.string(),
  /** A "Send me a test" message of the Settings page (docs/settings.md), not a review request. */
  test: z.optional(z.boolean()),
  /** The business's reply to the review the customer left through this request (no review link). */
  reply: z.optional(z.boolean()),
  channel: z.enum(['sms', 'email']),
  to: z.string(),
  subject: z.nullable(z.string()),
  body: z.string(),
  reviewLink: z.string(),
  status: z.enum(['accepted', 'failed']),
  error: z.nullable(z.string()),
  createdAt: z.string(),
  /** An SMS's parts and encoding (GSM-7, or UCS-2 when a character such as an emoji needs it); null for email. */
  sms: z.optional(
    z.nullable(
      z.object({ segments: /* @__PURE__ */ z.number().check(z.int()), encoding: z.enum(['GSM-7', 'UCS-2']) }),
    ),
  ),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const outboxListSchema = /* @__PURE__ */ z.object({ messages: z.array(outboxMessageSchema) });
