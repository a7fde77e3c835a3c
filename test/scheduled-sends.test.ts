import { describe, expect, it } from 'vitest';
import { drainDevJobs, moveDevClock } from './support/dev-clock.ts';
import { requestReviewLink } from './support/review-page.ts';
import { waitFor } from './support/stack.ts';
import { useApiOnFakeTwilio } from './support/twilio-stack.ts';

// Held requests as real API processes on one database, with the stand-in Twilio counting every
// create call: a text asked for at 23:00 is held, survives a SIGKILL of the process that took it,
// and is sent once at 08:00 by the process that runs then; with two processes running when the
// window opens, each held text is still sent exactly once. The clocks move over HTTP (DEV_CLOCK=1).

const NIGHT = '2030-01-15T23:00:00Z';
const OPENING = '2030-01-16T08:00:00Z';
const FROM = '+15005550006';

const setClock = (url: string, iso: string) => moveDevClock(url, { set: iso });

async function send(url: string, phone: string) {
  const { sent } = await requestReviewLink(url, stack.key, { customerName: 'Ada', customerPhone: phone });
  return {
    status: sent.status,
    body: sent.json as { data: { requestId: string; status: string; scheduledFor?: string } },
  };
}

async function record(url: string, id: string) {
  const response = await fetch(`${url}/api/v1/requests/${id}`, { headers: { 'x-api-key': stack.key } });
  return ((await response.json()) as { data: { status: string; legs: { state: string }[] } }).data;
}

const stack = useApiOnFakeTwilio(FROM, { QUIET_HOURS: '08:00-21:00', BUSINESS_TIME_ZONE: 'UTC' });

describe('held requests across processes', () => {
  it('a 23:00 text survives SIGKILL of the API and is sent once at 08:00', async () => {
    await setClock(stack.api.url, NIGHT);
    const phone = '+14155552301';
    const held = await send(stack.api.url, phone);
    expect(held.status).toBe(200);
    expect(held.body.data).toMatchObject({ status: 'scheduled', scheduledFor: '2030-01-16T08:00:00.000Z' });
    await stack.api.stop('SIGKILL');
    expect(stack.fake.count(phone)).toBe(0);

    await stack.api.restart();
    // A fresh process's clock starts at the real time; the held text is not due then.
    await drainDevJobs(stack.api.url);
    expect(stack.fake.count(phone)).toBe(0);
    expect((await record(stack.api.url, held.body.data.requestId)).status).toBe('scheduled');

    await setClock(stack.api.url, OPENING);
    await waitFor(() => stack.fake.count(phone) === 1, 15_000, 'the held text sent');
    await waitFor(
      async () => (await record(stack.api.url, held.body.data.requestId)).legs[0]?.state === 'delivered',
      15_000,
      'delivered',
    );
    await drainDevJobs(stack.api.url); // nothing left due or running: it is not sent again
    expect(stack.fake.count(phone)).toBe(1);
  });

  it('two processes on one database send each held text exactly once', async () => {
    const second = await stack.another();
    await setClock(stack.api.url, NIGHT.replace('15', '16'));
    await setClock(second.url, NIGHT.replace('15', '16'));
    const phones = Array.from({ length: 8 }, (_, i) => `+141555524${String(10 + i)}`);
    const ids: string[] = [];
    for (const [i, phone] of phones.entries()) {
      // Half through each process: either may take any of them later.
      const held = await send(i % 2 === 0 ? stack.api.url : second.url, phone);
      expect(held.body.data.status).toBe('scheduled');
      ids.push(held.body.data.requestId);
    }
    const opening = OPENING.replace('16', '17');
    await Promise.all([setClock(stack.api.url, opening), setClock(second.url, opening)]);
    await waitFor(() => phones.every((p) => stack.fake.count(p) >= 1), 20_000, 'every held text sent');
    // Each process runs what is due until neither has anything left running or due: a loser of a
    // claim that (wrongly) sent would have sent by then.
    await Promise.all([drainDevJobs(stack.api.url), drainDevJobs(second.url)]);
    expect(phones.map((p) => stack.fake.count(p))).toEqual(phones.map(() => 1));
    for (const id of ids) expect((await record(second.url, id)).status).toBe('sent');
  });

  it('sends asked for later go once at their time across two processes; retried or cancelled, never again', async () => {
    const second = await stack.another();
    const morning = '2030-01-20T10:00:00Z';
    await Promise.all([setClock(stack.api.url, morning), setClock(second.url, morning)]);
    const ask = async (url: string, body: Record<string, unknown>) =>
      (await requestReviewLink(url, stack.key, body)).sent.json as {
        data: { requestId: string; status: string; existing?: boolean };
      };
    const phones = Array.from({ length: 6 }, (_, i) => `+141555525${String(10 + i)}`);
    const ids: string[] = [];
    for (const [i, phone] of phones.entries()) {
      const body = { customerPhone: phone, delayMinutes: 30, externalId: `sale-${i}` };
      const made = await ask(i % 2 === 0 ? stack.api.url : second.url, body);
      expect(made.data.status).toBe('scheduled');
      // The point of sale retries through the other process: the same request, nothing more.
      const retried = await ask(i % 2 === 0 ? second.url : stack.api.url, body);
      expect(retried.data).toMatchObject({ requestId: made.data.requestId, existing: true });
      ids.push(made.data.requestId);
    }
    const cancelled = ids[5] as string;
    const deleted = await fetch(`${second.url}/api/v1/requests/${cancelled}`, {
      method: 'DELETE',
      headers: { 'x-api-key': stack.key, origin: second.url },
    });
    expect(deleted.status).toBe(200);
    const later = '2030-01-20T10:31:00Z';
    await Promise.all([setClock(stack.api.url, later), setClock(second.url, later)]);
    await waitFor(
      () => phones.slice(0, 5).every((p) => stack.fake.count(p) >= 1),
      20_000,
      'every sale’s request sent',
    );
    await Promise.all([drainDevJobs(stack.api.url), drainDevJobs(second.url)]);
    expect(phones.map((p) => stack.fake.count(p))).toEqual([1, 1, 1, 1, 1, 0]);
    expect((await record(stack.api.url, cancelled)).status).toBe('cancelled');
  });
});
