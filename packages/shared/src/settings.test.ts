import { describe, expect, it } from 'vitest';
import { fieldErrors } from './envelope.ts';
import {
  DEFAULT_EMAIL_SUBJECT,
  DEFAULT_EMAIL_TEMPLATE,
  DEFAULT_SMS_TEMPLATE,
  EMAIL_OPT_OUT,
  quietHoursToWindow,
  renderEmail,
  renderSms,
  renderTemplate,
  type Settings,
  SMS_OPT_OUT,
  settingsSchemaFor,
  smsPreview,
  templateProblems,
  windowToQuietHours,
} from './settings.ts';
import { settingsUpdateSchema } from './settings-api.ts';

const values = {
  customerName: 'Ana',
  businessName: 'Bright Dental',
  reviewLink: 'https://reviews.example.com/r/abc',
};
const context = {
  businessName: 'Bright Dental',
  reviewLink: `https://reviews.example.com/r/${'x'.repeat(43)}`,
};

const valid: Settings = {
  smsTemplate: DEFAULT_SMS_TEMPLATE,
  emailSubject: DEFAULT_EMAIL_SUBJECT,
  emailTemplate: DEFAULT_EMAIL_TEMPLATE,
  reminderAfterDays: 3,
  quietHours: { start: '08:00', end: '21:00' },
  timeZone: 'Europe/London',
  reviewSiteUrl: 'https://g.page/r/bright-dental/review',
};

/** The field errors of settings with `change` applied, as the API answers them. */
function errorsOf(change: Partial<Record<keyof Settings, unknown>>) {
  const result = settingsSchemaFor(context).safeParse({ ...valid, ...change });
  return result.success ? {} : fieldErrors(result.error).fields;
}

describe('renderTemplate', () => {
  it('writes the three placeholders', () => {
    expect(renderTemplate('Hi {customer_name} from {business_name}: {review_link}', values)).toBe(
      'Hi Ana from Bright Dental: https://reviews.example.com/r/abc',
    );
  });

  it.each([
    ['no name', null, 'Hi {customer_name}!', 'Hi there!'],
    ['an empty name', '', 'Hi {customer_name}!', 'Hi there!'],
    ['a blank name', '   ', 'Hi {customer_name}!', 'Hi there!'],
    ['the template’s own fallback', null, 'Dear {customer_name|friend},', 'Dear friend,'],
    ['a fallback with spaces', null, 'Dear {customer_name | valued customer},', 'Dear valued customer,'],
    ['a name wins over the fallback', 'Ana', 'Dear {customer_name|friend},', 'Dear Ana,'],
  ])('falls back for %s', (_label, customerName, template, expected) => {
    expect(renderTemplate(template, { ...values, customerName })).toBe(expected);
  });

  it('writes a name that looks like a placeholder as text (one pass)', () => {
    expect(renderTemplate('Hi {customer_name}', { ...values, customerName: '{review_link}' })).toBe(
      'Hi {review_link}',
    );
  });

  it('keeps lone braces as text', () => {
    expect(renderTemplate('a { b c', values)).toBe('a { b c');
    expect(renderTemplate('smile :-} {review_link}', values)).toBe(`smile :-} ${values.reviewLink}`);
  });
});

describe('renderSms and renderEmail', () => {
  it('end every message with the opt-out words the business cannot remove', () => {
    const sms = renderSms({ smsTemplate: 'Rate us: {review_link}' }, values);
    expect(sms).toBe(`Rate us: https://reviews.example.com/r/abc ${SMS_OPT_OUT}`);
    const email = renderEmail(
      { emailSubject: 'Hello {customer_name}', emailTemplate: '{review_link}\n\n' },
      values,
    );
    expect(email.subject).toBe('Hello Ana');
    expect(email.body).toBe(`https://reviews.example.com/r/abc\n\n${EMAIL_OPT_OUT}`);
  });

  it('write the defaults as before, with or without a name', () => {
    expect(renderSms({ smsTemplate: DEFAULT_SMS_TEMPLATE }, values)).toBe(
      `Hi Ana, thanks for choosing Bright Dental! How did we do? https://reviews.example.com/r/abc ${SMS_OPT_OUT}`,
    );
    const email = renderEmail(
      { emailSubject: DEFAULT_EMAIL_SUBJECT, emailTemplate: DEFAULT_EMAIL_TEMPLATE },
      { ...values, customerName: null },
    );
    expect(email.subject).toBe('How was your visit to Bright Dental?');
    expect(email.body.startsWith('Hi there, thanks for choosing Bright Dental.\n')).toBe(true);
    expect(email.body).toContain('\nhttps://reviews.example.com/r/abc\n');
    expect(email.body.endsWith(EMAIL_OPT_OUT)).toBe(true);
  });
});

describe('settings validation', () => {
  it('accepts the defaults and a full set of settings', () => {
    expect(errorsOf({})).toEqual({});
    expect(errorsOf({ quietHours: null, reviewSiteUrl: null, reminderAfterDays: 0 })).toEqual({});
    expect(errorsOf({ quietHours: { start: '22:00', end: '06:00' }, reminderAfterDays: 14 })).toEqual({});
  });

  it.each([
    ['smsTemplate', 'Thanks for visiting {business_name}!', /SMS message must contain \{review_link\}/],
    ['emailTemplate', 'Thanks {customer_name}', /Email message must contain \{review_link\}/],
    [
      'smsTemplate',
      'Hi {first_name}: {review_link}',
      /SMS message has an unknown placeholder \{first_name\}/,
    ],
    ['smsTemplate', 'Hi {Customer_Name}: {review_link}', /unknown placeholder \{Customer_Name\}/],
    ['emailTemplate', '{} {review_link}', /Email message has an unknown placeholder \{\}/],
    ['emailSubject', 'Hi {name}', /Email subject has an unknown placeholder \{name\}/],
    ['emailSubject', 'Review us {review_link}', /Email subject must not contain \{review_link\}/],
    ['emailSubject', 'Two\nlines', /Email subject must be one line/],
    ['smsTemplate', '   ', /SMS message must not be empty/],
    ['smsTemplate', 'Hi\u0007 {review_link}', /SMS message must not contain control characters/],
    ['smsTemplate', '{business_name|x} {review_link}', /only \{customer_name\} takes a fallback/],
    ['smsTemplate', '{customer_name|} {review_link}', /fallback .* must be 1–40 characters/],
    ['smsTemplate', '{customer_name|evil.com} {review_link}', /must not be a web address/],
    ['reminderAfterDays', 15, /Reminder must be none or after 1 to 14 days/],
    ['reminderAfterDays', -1, /Reminder/],
    ['reminderAfterDays', 1.5, /whole number/],
    ['reminderAfterDays', '3', /Reminder/],
    ['timeZone', 'Mars/Olympus', /Time zone must be a time zone such as Europe\/London/],
    [
      'reviewSiteUrl',
      'javascript:alert(1)',
      /Review site address must be a web address starting with https:/,
    ],
    ['reviewSiteUrl', 'ftp://example.com', /Review site address must be a web address starting with https:/],
  ])('refuses %s = %j, naming the field', (field, value, message) => {
    const fields = errorsOf({ [field]: value });
    expect(Object.keys(fields)).toEqual([field]);
    expect(fields[field]).toMatch(message);
  });

  it.each([
    [{ start: '8:00', end: '21:00' }, 'quietHours.start', /HH:MM/],
    [{ start: '08:00', end: '24:00' }, 'quietHours.end', /HH:MM/],
    [{ start: '09:00', end: '09:00' }, 'quietHours.end', /must differ/],
    ['08:00-21:00', 'quietHours', /object|expected/i],
  ])('refuses quiet hours %j at %s', (quietHours, field, message) => {
    const fields = errorsOf({ quietHours });
    expect(Object.keys(fields)).toEqual([field]);
    expect(fields[field]).toMatch(message);
  });

  it('refuses an SMS over three segments, counted with the business name, a real-length link and the opt-out words', () => {
    // GSM-7: three parts hold 459 septets. Find the longest template that fits, then one more letter.
    const base = ' {review_link}';
    const fits = (text: string) => smsPreview(text, context).segments.segments <= 3;
    let filler = '';
    while (fits(`${filler}a${base}`)) filler += 'a';
    expect(smsPreview(`${filler}${base}`, context).segments).toMatchObject({
      encoding: 'GSM-7',
      segments: 3,
    });
    expect(errorsOf({ smsTemplate: `${filler}${base}` })).toEqual({});
    const fields = errorsOf({ smsTemplate: `${filler}a${base}` });
    expect(fields.smsTemplate).toMatch(/SMS message makes an SMS of 4 segments \(GSM-7, 460 of 459/);
  });

  it('counts a template with one non-GSM character as UCS-2, so a shorter text is refused', () => {
    const text = `${'a'.repeat(200)} {review_link}`;
    expect(errorsOf({ smsTemplate: text })).toEqual({});
    const fields = errorsOf({ smsTemplate: `${text} ’` });
    expect(fields.smsTemplate).toMatch(/segments \(UCS-2/);
  });

  it('counts a longer business name against the limit', () => {
    const text = `${'a'.repeat(330)} {business_name} {review_link}`;
    expect(templateProblems({ ...valid, smsTemplate: text }, context)).toEqual({});
    const long = { ...context, businessName: 'B'.repeat(100) };
    expect(templateProblems({ ...valid, smsTemplate: text }, long).smsTemplate).toMatch(/4 segments/);
  });

  it('takes unknown fields as an error, and a partial update', () => {
    expect(errorsOf({ colour: 'red' } as never)).toEqual({ colour: 'Unknown field: colour.' });
    expect(settingsUpdateSchema.parse({ reminderAfterDays: 2 })).toEqual({ reminderAfterDays: 2 });
  });
});

describe('quiet hours shape', () => {
  it('converts to and from the sending window of quiet-hours.ts', () => {
    expect(quietHoursToWindow({ start: '08:00', end: '21:00' })).toEqual({ start: 480, end: 1260 });
    expect(quietHoursToWindow(null)).toBeNull();
    expect(windowToQuietHours({ start: 1350, end: 375 })).toEqual({ start: '22:30', end: '06:15' });
    expect(windowToQuietHours(null)).toBeNull();
  });
});
