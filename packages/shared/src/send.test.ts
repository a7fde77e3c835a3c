import { describe, expect, it } from 'vitest';
import { validationFailure } from './envelope.ts';
import { CUSTOMER_EMAIL_MAX, CUSTOMER_NAME_MAX } from './limits.ts';
import { sendIntent, sendRequestSchema } from './send.ts';

// POST /api/v1/requests/send: the contacts each channel needs, as a table.

const phone = '+14155552671';
const email = 'ann@example.com';

describe('send body: accepted', () => {
  it.each([
    ['sms is the default channel', { customerPhone: phone }, { channel: 'sms', customerPhone: phone }],
    [
      'rule 1: sms with an international phone',
      { channel: 'sms', customerPhone: phone },
      { customerPhone: phone },
    ],
    [
      'rule 2: email with a valid address',
      { channel: 'email', customerEmail: email },
      { customerEmail: email },
    ],
    [
      'rule 3: both with phone and email',
      { channel: 'both', customerPhone: phone, customerEmail: email },
      { customerPhone: phone, customerEmail: email },
    ],
    ['rule 4: link needs no contact', { channel: 'link' }, { channel: 'link' }],
    ['link keeps a contact it is given', { channel: 'link', customerEmail: email }, { customerEmail: email }],
    ['customerName is optional', { customerPhone: phone }, { customerName: undefined }],
    [
      'customerName is trimmed',
      { customerName: '  Ann Lee ', customerPhone: phone },
      { customerName: 'Ann Lee' },
    ],
    ['blank name counts as absent', { customerName: '   ', channel: 'link' }, { customerName: undefined }],
    [
      'a line break or tab in the name becomes one space',
      { customerName: 'Ann\n\tLee', channel: 'link' },
      { customerName: 'Ann Lee' },
    ],
    [
      'controls and bidi overrides/isolates are stripped from the name',
      { customerName: '\u202eAnn\u0007 \u2066Lee\u2069\u0000', channel: 'link' },
      { customerName: 'Ann Lee' },
    ],
    [
      'a name of nothing but invisible characters counts as absent',
      { customerName: '\u202e\u200b\u0000', channel: 'link' },
      { customerName: undefined },
    ],
    [
      'a name with initials, an apostrophe and accents is kept',
      { customerName: "J.R. O'Brien-Núñez", channel: 'link' },
      { customerName: "J.R. O'Brien-Núñez" },
    ],
    [
      `customerName of ${CUSTOMER_NAME_MAX} characters`,
      { customerName: 'a'.repeat(CUSTOMER_NAME_MAX), channel: 'link' },
      { customerName: 'a'.repeat(CUSTOMER_NAME_MAX) },
    ],
    [
      'phone with spaces and punctuation → E.164',
      { customerPhone: '+1 (415) 555-2671' },
      { customerPhone: phone },
    ],
    ['UK mobile → E.164', { customerPhone: '+44 7911 123456' }, { customerPhone: '+447911123456' }],
    ['German number → E.164', { customerPhone: '+49 30 901820' }, { customerPhone: '+4930901820' }],
    [
      'email is trimmed and lower-cased',
      { channel: 'email', customerEmail: '  Ann@Example.COM ' },
      { customerEmail: email },
    ],
    [
      'blank phone is absent for channel email',
      { channel: 'email', customerEmail: email, customerPhone: '' },
      { customerPhone: undefined },
    ],
  ])('%s', (_name, input, expected) => {
    const result = sendRequestSchema.safeParse(input);
    expect(result.error?.issues).toBeUndefined();
    for (const [key, value] of Object.entries(expected)) {
      expect(result.data?.[key as keyof typeof result.data]).toEqual(value);
    }
  });

  it(`accepts an email address of exactly ${CUSTOMER_EMAIL_MAX} characters`, () => {
    const label = 'b'.repeat(63);
    const local = 'a'.repeat(64);
    const domain = `${label}.${label}.${label}.${'c'.repeat(CUSTOMER_EMAIL_MAX - 64 - 1 - 3 * 64 - 4)}.com`;
    const address = `${local}@${domain}`;
    expect(address).toHaveLength(CUSTOMER_EMAIL_MAX);
    expect(sendRequestSchema.safeParse({ channel: 'email', customerEmail: address }).success).toBe(true);
  });
});

describe('send body: rejected, with the message on the offending field', () => {
  it.each([
    ['rule 1: sms without a phone', { channel: 'sms' }, 'customerPhone', /is required to send by/],
    [
      'rule 1: default channel without a phone',
      { customerName: 'Ann' },
      'customerPhone',
      /is required to send by/,
    ],
    [
      'rule 1: phone without +',
      { customerPhone: '4155552671' },
      'customerPhone',
      /must start with \+ and the country code/,
    ],
    ['rule 1: phone with letters', { customerPhone: '+1415CALLNOW' }, 'customerPhone', /only digits/],
    [
      'rule 1: phone not valid for its country',
      { customerPhone: '+1 123 456' },
      'customerPhone',
      /Phone number is not valid/,
    ],
    [
      'rule 1: unknown country code',
      { customerPhone: '+999 1234567' },
      'customerPhone',
      /Phone number is not valid/,
    ],
    ['rule 1: phone too long', { customerPhone: `+1${'2'.repeat(60)}` }, 'customerPhone', /too long/],
    ['rule 1: phone not text', { customerPhone: 14155552671 }, 'customerPhone', /must be text/],
    ['rule 2: email without an address', { channel: 'email' }, 'customerEmail', /is required to send by/],
    [
      'rule 2: email with an invalid address',
      { channel: 'email', customerEmail: 'ann@' },
      'customerEmail',
      /valid email/,
    ],
    [
      'rule 2: email without a domain dot',
      { channel: 'email', customerEmail: 'ann@example' },
      'customerEmail',
      /valid email/,
    ],
    [
      'rule 2: email too long',
      { channel: 'email', customerEmail: `${'a'.repeat(320)}@example.com` },
      'customerEmail',
      /at most 320/,
    ],
    [
      'rule 3: both without email',
      { channel: 'both', customerPhone: phone },
      'customerEmail',
      /is required to send by/,
    ],
    [
      'rule 3: both without phone',
      { channel: 'both', customerEmail: email },
      'customerPhone',
      /is required to send by/,
    ],
    ['unknown channel', { channel: 'fax', customerPhone: phone }, 'channel', /one of sms, email, both, link/],
    ['channel in the wrong case', { channel: 'SMS', customerPhone: phone }, 'channel', /one of/],
    ['name too long', { channel: 'link', customerName: 'a'.repeat(201) }, 'customerName', /at most 200/],
    ...[
      'Ann https://evil.example',
      'Ann www.evil.example',
      'Visit evil.com/x',
      'Ann (ann@evil.com)',
      'Ann 203.0.113.7',
      'Ann e\u202evil.com',
    ].map((customerName): [string, unknown, string, RegExp] => [
      `name holding a web address: ${JSON.stringify(customerName)}`,
      { channel: 'link', customerName },
      'customerName',
      /must not contain a web address/,
    ]),
    ['name not text', { channel: 'link', customerName: 42 }, 'customerName', /must be text/],
    ['unknown body field', { channel: 'link', customer_email: email }, 'customer_email', /Unknown field/],
    [
      'prototype key as field',
      JSON.parse('{"channel":"link","__proto__":{"x":1}}'),
      '__proto__',
      /Unknown field/,
    ],
  ])('%s', (_name, input, field, message) => {
    const result = sendRequestSchema.safeParse(input);
    expect(result.success).toBe(false);
    const envelope = validationFailure(result.error!);
    expect(envelope.success).toBe(false);
    expect(envelope.fields?.[field]).toMatch(message);
    expect(envelope.error).toContain(envelope.fields?.[field]);
  });

  it.each([
    ['null', null],
    ['an array', [{ channel: 'link' }]],
    ['a string', 'channel=link'],
  ])('a body that is %s is refused with a general message', (_name, input) => {
    const result = sendRequestSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(validationFailure(result.error!).error.length).toBeGreaterThan(0);
  });
});

describe('send intent', () => {
  const intent = (body: unknown) => sendIntent(sendRequestSchema.parse(body));

  it('is the same for two spellings of one intent', () => {
    expect(intent({ channel: 'sms', customerPhone: '+1 (415) 555-2671', customerName: ' Ann Lee ' })).toBe(
      intent({ customerName: 'Ann Lee', customerPhone: '+14155552671', channel: 'sms' }),
    );
    expect(intent({ channel: 'email', customerEmail: 'Ann@Example.COM', customerName: '' })).toBe(
      intent({ channel: 'email', customerEmail: 'ann@example.com' }),
    );
    // The channel's default is part of the intent.
    expect(intent({ customerPhone: '+14155552671' })).toBe(
      intent({ channel: 'sms', customerPhone: '+14155552671' }),
    );
  });

  it('differs when any field that changes what is sent differs', () => {
    const base = {
      channel: 'both',
      customerName: 'Ann',
      customerPhone: '+14155552671',
      customerEmail: 'a@x.com',
    };
    const variants = [
      base,
      { ...base, channel: 'sms' },
      { ...base, customerName: 'Anne' },
      { ...base, customerPhone: '+14155552672' },
      { ...base, customerEmail: 'b@x.com' },
      { ...base, customerName: undefined },
    ];
    expect(new Set(variants.map(intent)).size).toBe(variants.length);
  });
});
