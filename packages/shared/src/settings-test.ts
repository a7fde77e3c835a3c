import { checkPhone } from './phone.ts';
import type { Scope } from './scopes.ts';
import { settingsObjectSchema } from './settings.ts';
import { z } from './zod.ts';

// "Send me a test" (POST /api/v1/settings/test, an extension beside GET/PUT /api/v1/settings:
// docs/settings.md): the business's words, written with a sample customer name and a sample link,
// sent once to the owner's own phone or email. Not a review request: no allowance, no frequency
// cap, no reminder; at most TEST_SENDS_PER_HOUR per business in any hour.

export const TEST_SENDS_PER_HOUR = 5;

export const SETTINGS_TEST_ENDPOINT = {
  method: 'POST',
  path: '/api/v1/settings/test',
  scope: 'settings:write',
} as const satisfies { method: 'POST'; path: string; scope: Scope };

/** The dashboard's own call: the BFF fills in the owner's email; the phone is typed on the page. */
export const BFF_SETTINGS_TEST_PATH = '/bff/settings/test';

/**
 * The words to try: the ones on the owner's screen, saved or not (each left out: the saved one).
 * They are checked with the same rules as a PUT.
 */
export const testTemplatesSchema = /* @__PURE__ */ z.partial(
  z.pick(settingsObjectSchema, { smsTemplate: true, emailSubject: true, emailTemplate: true }),
);

/** A phone in any spelling the send form takes, as E.164; the refusal names it as the page does. */
const phoneField = (field = 'Phone number') =>
  z.pipe(
    z.string({ error: `${field} must be a phone number` }),
    z.transform((value: string, ctx) => {
      const result = checkPhone(value);
      if (!result.ok) {
        ctx.issues.push({ code: 'custom', message: `${field} ${result.reason}`, input: value });
        return z.NEVER;
      }
      return result.e164;
    }),
  );

export const settingsTestBodySchema = /* @__PURE__ */ z.discriminatedUnion(
  'channel',
  [
    z.strictObject({
      channel: z.literal('sms'),
      to: phoneField(),
      templates: z.optional(testTemplatesSchema),
    }),
    z.strictObject({
      channel: z.literal('email'),
      to: z.pipe(
        z.pipe(
          z
            .string({ error: 'Email address must be text' })
            .check(z.trim(), z.maxLength(320, { error: 'Email address must be at most 320 characters' })),
          z.email({ error: 'Email address must be a valid email address, e.g. name@example.com' }),
        ),
        z.transform((value) => value.toLowerCase()),
      ),
      templates: z.optional(testTemplatesSchema),
    }),
  ],
  { error: 'Send it as SMS or email' },
);
export type SettingsTestBody = z.input<typeof settingsTestBodySchema>;

/** POST /bff/settings/test: an SMS goes to the phone given; an email to the signed-in owner's address. */
export const bffSettingsTestBodySchema = /* @__PURE__ */ z.discriminatedUnion(
  'channel',
  [
    z.strictObject({
      channel: z.literal('sms'),
      phone: phoneField(),
      templates: z.optional(testTemplatesSchema),
    }),
    z.strictObject({ channel: z.literal('email'), templates: z.optional(testTemplatesSchema) }),
  ],
  { error: 'Send it as SMS or email' },
);
export type BffSettingsTestBody = z.input<typeof bffSettingsTestBodySchema>;

/**
 * What happened to the test. sent — handed to the carrier (not a delivery receipt); unknown —
 * the carrier did not answer in time, it may have gone out. A test that failed is the error
 * envelope (`delivery_failed`), and one over the hourly limit `test_send_limited`.
 */
export const settingsTestResultSchema = /* @__PURE__ */ z.object({
  channel: z.enum(['sms', 'email']),
  to: z.string(),
  status: z.enum(['sent', 'unknown']),
  /** The carrier's words for `unknown`; else null. */
  error: z.nullable(z.string()),
  /** Tests left in the current hour. */
  remaining: /* @__PURE__ */ z.number().check(z.int(), z.nonnegative()),
});
export type SettingsTestResult = z.infer<typeof settingsTestResultSchema>;
