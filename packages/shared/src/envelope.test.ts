import { describe, expect, it } from 'vitest';
import { fieldErrors, formErrors, validationFailure } from './envelope.ts';
import { sendRequestSchema } from './send.ts';

// One mapping from zod issues to field messages: the 400 the services send and the messages
// the dashboard's forms show before sending are the same words.

describe('field errors', () => {
  const error = sendRequestSchema.safeParse({
    channel: 'both',
    customerPhone: '12',
    customerEmail: 'nope',
    extra: 1,
  }).error!;

  it('keep the first message per field, name unknown fields, and say the same in the 400 and the form', () => {
    const { fields } = fieldErrors(error);
    expect(Object.keys(fields).sort()).toEqual(['customerEmail', 'customerPhone', 'extra']);
    expect(fields.extra).toBe('Unknown field: extra.');
    const envelope = validationFailure(error);
    expect(envelope).toMatchObject({ code: 'validation_failed', fields });
    expect(formErrors(error, ['customerPhone', 'customerEmail', 'customerName'])).toEqual({
      customerPhone: fields.customerPhone,
      customerEmail: fields.customerEmail,
    });
  });

  it('keep a body’s own field names away from the prototype', () => {
    const proto = sendRequestSchema.safeParse(JSON.parse('{"channel":"link","__proto__":{"x":1}}')).error;
    const fields = proto ? fieldErrors(proto).fields : {};
    expect(Object.getPrototypeOf(fields)).toBeNull();
  });

  it('never repeat a field name that holds something like an API key', () => {
    const key = `rd_live_${'K'.repeat(43)}`;
    const error = sendRequestSchema.safeParse({ channel: 'link', [key]: 1 }).error!;
    const envelope = validationFailure(error);
    expect(JSON.stringify(envelope)).not.toContain('K'.repeat(43));
    expect(envelope.fields).toEqual({ '[redacted]': 'Unknown field: [redacted].' });
  });
});
