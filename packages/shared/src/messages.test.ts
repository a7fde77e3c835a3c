import { describe, expect, it } from 'vitest';
import { alertPreferencesSchema } from './alerts.ts';
import { createUserSchema, loginBodySchema, sendHistoryQuerySchema } from './bff.ts';
import { bulkSendRequestSchema } from './bulk.ts';
import { validationFailure } from './envelope.ts';
import { sendRequestSchema } from './send.ts';
import { SAMPLE_CONTEXT, settingsSchemaFor } from './settings.ts';
import { bffSettingsTestBodySchema } from './settings-test.ts';

// The words a person reads name things as the dashboard's pages label them ("Phone number is not
// valid"), never by the code's field names; those stay in the envelope's `fields` (and `code`) for
// programs to decide on.

const CODE_NAMES =
  /\b(customerName|customerPhone|customerEmail|smsTemplate|emailSubject|emailTemplate|reminderAfterDays|quietHours|timeZone|reviewSiteUrl|dailyCap|skipRecent)\b|\(channel \w+\)/;

const refusals: [string, { safeParse: (v: unknown) => { success: boolean; error?: unknown } }, unknown][] = [
  ['a send without a phone', sendRequestSchema, { channel: 'sms' }],
  ['a send to both without either', sendRequestSchema, { channel: 'both', customerName: 'Ana' }],
  ['a send with a bad phone', sendRequestSchema, { channel: 'sms', customerPhone: '+1 555' }],
  ['a send with a bad email', sendRequestSchema, { channel: 'email', customerEmail: 'ana@' }],
  [
    'a send with a web address for a name',
    sendRequestSchema,
    { channel: 'link', customerName: 'see evil.com' },
  ],
  [
    'settings with bad words',
    settingsSchemaFor(SAMPLE_CONTEXT),
    {
      smsTemplate: 'Hi {first_name}',
      emailSubject: 'Two\nlines',
      emailTemplate: ' ',
      reminderAfterDays: 30,
      quietHours: { start: '9', end: '9' },
      timeZone: 'Mars/Olympus',
      reviewSiteUrl: 'ftp://x',
    },
  ],
  [
    'a list with a bad row and a bad cap',
    bulkSendRequestSchema,
    { rows: [{ customerPhone: 'x' }], dailyCap: 0 },
  ],
  ['an empty list', bulkSendRequestSchema, { rows: [] }],
  [
    'alert preferences',
    alertPreferencesSchema,
    { enabled: 1, threshold: 9, channel: 'sms', timeZone: 'x', digest: 0 },
  ],
  ['a test send to a bad phone', bffSettingsTestBodySchema, { channel: 'sms', phone: '12' }],
  ['a new user', createUserSchema, { email: 'x', role: 'boss', password: 'short' }],
  ['a sign-in', loginBodySchema, { email: '', password: '' }],
  ['a search of the send history', sendHistoryQuerySchema, { contact: '', country: 'usa' }],
];

describe('messages people read', () => {
  it.each(refusals)(
    '%s: named as the pages label them; the fields keep their code names',
    (_name, schema, input) => {
      const parsed = schema.safeParse(input);
      expect(parsed.success).toBe(false);
      const envelope = validationFailure(parsed.error as Parameters<typeof validationFailure>[0]);
      expect(envelope.error).not.toMatch(CODE_NAMES);
      for (const message of Object.values(envelope.fields ?? {})) expect(message).not.toMatch(CODE_NAMES);
      expect(Object.keys(envelope.fields ?? {}).length).toBeGreaterThan(0);
    },
  );

  it('says what a send lacks, and what is wrong with it, in the form’s words', () => {
    const lacking = sendRequestSchema.safeParse({ channel: 'both', customerPhone: '+14155552671' });
    expect(validationFailure(lacking.error!).fields).toEqual({
      customerEmail: 'Customer email is required to send by SMS and email',
    });
    const wrong = sendRequestSchema.safeParse({ channel: 'sms', customerPhone: '+1 234' });
    expect(validationFailure(wrong.error!).fields).toEqual({
      customerPhone: 'Phone number is not valid: check the number and its country code, e.g. +14155552671',
    });
  });
});
