import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateRequest } from 'twilio/lib/webhooks/webhooks.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTwilio, startFakeTwilio } from '../../../../test/support/fake-twilio.ts';
import { fakeTwilioConfig } from '../../test/support/twilio-config.ts';
import type { OutgoingMessage } from './provider.ts';
import { type TwilioProviderOptions, twilioProvider } from './twilio.ts';

// The provider against the stand-in Twilio: the documented request, and what each answer means.

let fake: FakeTwilio;
let callbacks: http.Server;
const received: { url: string; signature: string | undefined; params: Record<string, string> }[] = [];
let callbackUrl = '';

beforeAll(async () => {
  fake = await startFakeTwilio({ receiptDelayMs: 1 });
  // Where the fake posts its receipts: records them (the webhook itself is tested elsewhere).
  callbacks = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        url: `${callbackUrl}`,
        signature: req.headers['x-twilio-signature'] as string | undefined,
        params: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
      });
      res.writeHead(200, { 'content-type': 'text/xml' }).end('<Response/>');
    });
  });
  await new Promise<void>((resolve) => callbacks.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callbacks.address() as AddressInfo).port}/webhooks/twilio/status`;
});

afterAll(async () => {
  await fake.close();
  await new Promise((resolve) => callbacks.close(resolve));
});

afterEach(() => {
  fake.reset();
  received.length = 0;
});

function provider(overrides: Partial<TwilioProviderOptions> = {}) {
  return twilioProvider({
    ...fakeTwilioConfig(fake),
    statusCallback: () => callbackUrl,
    ...overrides,
  });
}

const sms = (to: string, body = 'Hi Ana, thanks for choosing Harbour Street Coffee!'): OutgoingMessage => ({
  channel: 'sms',
  to,
  subject: null,
  body,
  reviewLink: 'http://127.0.0.1/r/x',
});

describe('twilio provider', () => {
  it('creates the message with the documented form and follows it by its sid', async () => {
    const twilio = provider();
    const outcome = await twilio.deliver(sms('+14155550100'));
    expect(outcome).toMatchObject({ status: 'accepted', state: 'queued', segments: 1 });
    expect(fake.messages).toHaveLength(1);
    const [message] = fake.messages;
    expect(message).toMatchObject({
      to: '+14155550100',
      from: '+15005550006',
      messagingServiceSid: null,
      statusCallback: callbackUrl,
      authUser: fake.accountSid,
      body: 'Hi Ana, thanks for choosing Harbour Street Coffee!',
    });
    if (outcome.status !== 'accepted') throw new Error('not accepted');
    expect(outcome.providerMessageId).toBe(message?.sid);
    // The receipts come back signed with the auth token, as Twilio signs them.
    await fake.settled();
    expect(received.map((r) => r.params.MessageStatus)).toEqual(['sent', 'delivered']);
    for (const r of received) {
      expect(r.params.MessageSid).toBe(message?.sid);
      expect(validateRequest(fake.authToken, r.signature ?? '', r.url, r.params)).toBe(true);
      expect(validateRequest('another-token-000000', r.signature ?? '', r.url, r.params)).toBe(false);
    }
    await twilio.close();
  });

  it('sends through a Messaging Service and with an API key when configured', async () => {
    const keyed = await startFakeTwilio({ apiKey: { sid: `SK${'1'.repeat(32)}`, secret: 'k'.repeat(32) } });
    const twilio = twilioProvider({
      accountSid: keyed.accountSid,
      authToken: keyed.authToken,
      username: `SK${'1'.repeat(32)}`,
      password: 'k'.repeat(32),
      from: null,
      messagingServiceSid: `MG${'2'.repeat(32)}`,
      apiBase: keyed.url,
      timeoutMs: 2_000,
      statusCallback: () => callbackUrl,
    });
    expect(await twilio.deliver(sms('+14155550101'))).toMatchObject({ status: 'accepted' });
    expect(keyed.messages[0]).toMatchObject({
      authUser: `SK${'1'.repeat(32)}`,
      from: null,
      messagingServiceSid: `MG${'2'.repeat(32)}`,
    });
    await twilio.close();
    await keyed.close();
  });

  it.each([
    [21211, 'invalid_number', /Phone number is not a valid number for text messages/],
    [21614, 'invalid_number', /not a mobile number/],
    [21610, 'opted_out', /replied STOP/],
  ] as const)('maps error %i to a refusal about the contact (%s)', async (code, refusal, words) => {
    fake.on('+14155550102', { kind: 'error', code });
    const outcome = await provider().deliver(sms('+14155550102'));
    expect(outcome).toMatchObject({ status: 'failed', refusal, errorCode: String(code) });
    if (outcome.status === 'failed') expect(outcome.error).toMatch(words);
  });

  it.each([
    [21408, /Geo permissions/],
    [20003, /TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN/],
    [20005, /not active/],
    [20429, /limiting/],
    [20500, /HTTP 500/],
    [20503, /HTTP 503/],
  ] as const)('maps error %i to a failed leg an operator can act on', async (code, words) => {
    fake.on('+14155550103', { kind: 'error', code });
    const outcome = await provider().deliver(sms('+14155550103'));
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') {
      expect(outcome.error).toMatch(words);
      expect(outcome.refusal).toBeUndefined();
    }
    // Never retried: one call reached the fake.
    expect(fake.count('+14155550103')).toBe(1);
  });

  it('refused credentials are a failed leg naming the variables', async () => {
    const outcome = await provider({ password: 'wrong-token-0000000000' }).deliver(sms('+14155550104'));
    expect(outcome).toMatchObject({ status: 'failed', errorCode: '20003' });
  });

  it('a timeout after the request left is unknown, and is not sent again', async () => {
    fake.on('+14155550105', { kind: 'hang' });
    const started = Date.now();
    const outcome = await provider({ timeoutMs: 300 }).deliver(sms('+14155550105'));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(outcome).toMatchObject({ status: 'unknown' });
    if (outcome.status === 'unknown') expect(outcome.error).toMatch(/may have been sent/);
    expect(fake.count('+14155550105')).toBe(1);
  });

  it('a connection reset after the request left is unknown', async () => {
    fake.on('+14155550106', { kind: 'reset' });
    const outcome = await provider().deliver(sms('+14155550106'));
    expect(outcome).toMatchObject({ status: 'unknown' });
    expect(fake.count('+14155550106')).toBe(1);
  });

  it('a Twilio that cannot be reached means the text was not sent', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await provider({ apiBase: `http://127.0.0.1:${port}` }).deliver(sms('+14155550107'));
    expect(outcome).toMatchObject({ status: 'failed' });
    if (outcome.status === 'failed') expect(outcome.error).toMatch(/could not be reached.*not sent/);
  });

  it('a slow answer within the timeout is a normal send', async () => {
    fake.on('+14155550108', { kind: 'accept', delayMs: 200 });
    expect(await provider({ timeoutMs: 2_000 }).deliver(sms('+14155550108'))).toMatchObject({
      status: 'accepted',
    });
  });
});
