import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { describe, expect, it } from 'vitest';
import { receiptError, twilioRefusal } from './twilio-errors.ts';
import { inboundKeyword, twilioReceipt, twilioSignatureValid } from './twilio-webhooks.ts';

const SID = `SM${'a'.repeat(32)}`;
const TOKEN = 'auth-token-0123456789abcdef';

describe('twilioSignatureValid', () => {
  const url = 'https://reviews.example.com/webhooks/twilio/status';
  const params = { MessageSid: SID, MessageStatus: 'delivered', To: '+14155550100' };
  const signature = getExpectedTwilioSignature(TOKEN, url, params);

  it('accepts Twilio’s signature over the public URL and the parameters', () => {
    expect(twilioSignatureValid(TOKEN, url, signature, params)).toBe(true);
  });

  it('refuses a missing, forged or re-targeted signature and changed parameters', () => {
    expect(twilioSignatureValid(TOKEN, url, undefined, params)).toBe(false);
    expect(twilioSignatureValid(TOKEN, url, '', params)).toBe(false);
    expect(
      twilioSignatureValid(TOKEN, url, getExpectedTwilioSignature('other-token-000000', url, params), params),
    ).toBe(false);
    expect(
      twilioSignatureValid(TOKEN, 'http://127.0.0.1:4000/webhooks/twilio/status', signature, params),
    ).toBe(false);
    expect(twilioSignatureValid(TOKEN, url, signature, { ...params, MessageStatus: 'failed' })).toBe(false);
  });
});

describe('twilioReceipt', () => {
  it.each([
    ['queued', 'queued'],
    ['accepted', 'queued'],
    ['sending', 'queued'],
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['read', 'delivered'],
    ['undelivered', 'undelivered'],
    ['failed', 'failed'],
  ])('reads MessageStatus %s as the leg state %s', (status, state) => {
    expect(twilioReceipt({ MessageSid: SID, MessageStatus: status })?.state).toBe(state);
  });

  it('gives the carrier’s reason in words for undelivered and failed', () => {
    expect(twilioReceipt({ MessageSid: SID, MessageStatus: 'undelivered', ErrorCode: '30003' })).toEqual({
      messageSid: SID,
      status: 'undelivered',
      state: 'undelivered',
      errorCode: '30003',
      error: 'The phone is switched off or out of reach. (Twilio error 30003)',
    });
    expect(twilioReceipt({ MessageSid: SID, MessageStatus: 'failed' })?.error).toBe(
      'The carrier gave no reason.',
    );
    expect(receiptError('39999')).toBe('The carrier reported error 39999.');
  });

  it('ignores callbacks that name no message of the form Twilio uses, or no outbound state', () => {
    expect(twilioReceipt({ MessageStatus: 'delivered' })).toBeNull();
    expect(twilioReceipt({ MessageSid: 'SM123', MessageStatus: 'delivered' })).toBeNull();
    expect(twilioReceipt({ MessageSid: SID, MessageStatus: 'received' })).toBeNull();
    expect(twilioReceipt({ MessageSid: SID, MessageStatus: 'exploded' })).toBeNull();
    // The older parameter names are read too.
    expect(twilioReceipt({ SmsSid: SID, SmsStatus: 'sent' })?.state).toBe('sent');
  });
});

describe('inboundKeyword', () => {
  it.each(['STOP', 'stop', '  Stop ', 'STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit\n'])(
    '%j opts out',
    (body) => {
      expect(inboundKeyword(body)).toBe('opt_out');
    },
  );
  it.each(['START', ' start', 'Unstop'])('%j opts back in', (body) => {
    expect(inboundKeyword(body)).toBe('opt_in');
  });
  it.each(['Stop please', 'thanks!', '', 'STOP STOP', 'HELP', undefined])('%j is neither', (body) => {
    expect(inboundKeyword(body)).toBeNull();
  });
});

describe('twilioRefusal', () => {
  it('falls back on the HTTP status for codes it does not know', () => {
    expect(twilioRefusal(401, null, null).error).toMatch(/credentials \(HTTP 401/);
    expect(twilioRefusal(429, null, null).error).toMatch(/HTTP 429/);
    expect(twilioRefusal(502, null, null).error).toMatch(/HTTP 502.*not sent/);
    expect(twilioRefusal(400, 21999, 'Something new')).toEqual({
      kind: 'failed',
      error: 'Twilio refused the text (error 21999: Something new).',
    });
  });
});
