import { outboxListSchema, requestRecordSchema, successEnvelopeSchema } from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_RECEIPT_MS } from '../src/delivery/tracker.ts';
import { bothChannels, getJson, send, sendOk, startTestApi, uniquePhone, useTestApi } from './helpers.ts';

// The outbox provider makes up the same receipts a carrier sends, so the whole flow — sent, then
// delivered or not — runs on one machine without Twilio.

const api = useTestApi({ devOutbox: false, monthlySendAllowance: 0, frequencyCapDays: 0 });
let key: string;

beforeAll(async () => {
  // Without the fault hooks: the 0000 phone is accepted, then not delivered.
  await api.business('shop', 'Corner Shop');
  key = await api.key('shop');
});

async function legsOf(id: string) {
  const result = await getJson(api, `/api/v1/requests/${id}`, key);
  return successEnvelopeSchema(requestRecordSchema).parse(result.body).data.legs;
}

async function settle(id: string) {
  const end = Date.now() + OUTBOX_RECEIPT_MS * 5;
  for (;;) {
    const legs = await legsOf(id);
    if (legs.every((l) => l.state !== 'sent') || Date.now() > end) return legs;
    await new Promise((resolve) => setTimeout(resolve, 50)); // poll: a look again at the legs
  }
}

describe('the outbox’s receipts', () => {
  it('an SMS and an email are sent, then delivered a moment later', async () => {
    const result = await sendOk(api, key, bothChannels());
    const id = result.body.data.requestId as string;
    const first = await legsOf(id);
    expect(first.map((l) => [l.channel, l.provider, l.state])).toEqual([
      ['sms', 'outbox', 'sent'],
      ['email', 'outbox', 'sent'],
    ]);
    const later = await settle(id);
    expect(later.map((l) => l.state)).toEqual(['delivered', 'delivered']);
  });

  it('the phone ending 0000 is not delivered, with the carrier’s reason', async () => {
    const id = (await send(api, key, { customerPhone: '+14155550000' })).body.data.requestId as string;
    const [leg] = await settle(id);
    expect(leg).toMatchObject({ state: 'undelivered', error: expect.stringMatching(/out of reach/) });
  });
});

describe('segments', () => {
  it('the dev outbox shows each SMS’s parts, and a name with an emoji makes it UCS-2', async () => {
    const dev = await startTestApi({ devOutbox: true, monthlySendAllowance: 0, frequencyCapDays: 0 });
    try {
      await dev.business('cafe', 'Cafe');
      const devKey = await dev.key('cafe');
      const sms = async (customerName: string) => {
        const id = (await send(dev, devKey, { customerName, customerPhone: uniquePhone() })).body.data
          .requestId;
        const list = successEnvelopeSchema(outboxListSchema).parse(
          (await getJson(dev, `/dev/outbox.json?requestId=${id}`)).body,
        );
        return list.data.messages[0]!.sms;
      };
      expect(await sms('Ada')).toEqual({ segments: 1, encoding: 'GSM-7' });
      expect(await sms('Ada 🌟')).toMatchObject({ encoding: 'UCS-2' });
      const page = await dev.fetch('/dev/outbox');
      expect(await page.text()).toMatch(/1 × GSM-7/);
    } finally {
      await dev.stop();
    }
  });
});
