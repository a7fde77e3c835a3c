import { FakeClock } from '@review-desk/server/clock';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, execute, outboxFor, queryOne, uniquePhone, useTestApi, writeJson } from './helpers.ts';
import { detailOf, directReview, readReview, reply } from './support/replies.ts';

// A reply to the customer outside the business's sending hours, on a clock the test moves: held,
// then sent once when they open (by the jobs table's runner, drained here); not sent to a customer
// who opted out meanwhile; `unknown`, never sent twice, when a process stopped while handing it
// over. And the reply attempts' retention: a flood of them is purged down to each review's latest.

const NIGHT = Date.parse('2030-09-10T23:00:00Z');
const MORNING = Date.parse('2030-09-11T08:00:00Z');

describe.each(ENGINES)('%s', (engine) => {
  const clock = new FakeClock(NIGHT);
  const api = useTestApi({ frequencyCapDays: 0, monthlySendAllowance: 0 }, { engine, clock });
  let key: string;

  beforeAll(async () => {
    await api.business('night', 'Night Owl', null);
    key = await api.key('night');
    // Requests go at any hour (the ones these tests need), replies wait for 08:00–21:00.
    const put = await writeJson(api, 'PUT', '/api/v1/settings', key, { quietHours: null, timeZone: 'UTC' });
    expect(put.status).toBe(200);
  });

  async function heldReview(text: string) {
    const review = await directReview(api, key, { customerPhone: uniquePhone() });
    await writeJson(api, 'PUT', '/api/v1/settings', key, { quietHours: { start: '08:00', end: '21:00' } });
    const held = detailOf(await reply(api, key, review.id, { text }));
    await writeJson(api, 'PUT', '/api/v1/settings', key, { quietHours: null });
    return { ...review, held };
  }
  const replies = async (requestId: string) => (await outboxFor(api, requestId)).filter((m) => m.reply);

  it('holds a reply asked for at night and sends it once when sending hours open', async () => {
    const { id, requestId, held } = await heldReview('Sorry about the noise.');
    expect(held).toMatchObject({
      response_status: 'responded',
      reply: { state: 'scheduled', scheduledFor: new Date(MORNING).toISOString() },
    });
    await writeJson(api, 'PUT', '/api/v1/settings', key, { quietHours: { start: '08:00', end: '21:00' } });
    await api.ctx.jobs.drain();
    expect(await replies(requestId)).toEqual([]);
    clock.set(MORNING);
    await api.ctx.jobs.drain();
    expect((await replies(requestId)).map((m) => m.body)).toEqual([
      'Night Owl: Sorry about the noise. Reply STOP to opt out.',
    ]);
    expect(detailOf(await readReview(api, key, id)).reply?.state).toBe('sent');
    await api.ctx.jobs.drain();
    expect(await replies(requestId)).toHaveLength(1);
    await writeJson(api, 'PUT', '/api/v1/settings', key, { quietHours: null });
    clock.set(NIGHT);
  });

  it('does not send a held reply to a customer who opted out meanwhile', async () => {
    const { id, requestId, token } = await heldReview('Held, then not wanted.');
    await api.ctx.store.requests.optOut((await api.ctx.store.requests.byToken(token))!, clock.now());
    clock.set(MORNING + 3_600_000);
    await api.ctx.jobs.drain();
    expect(await replies(requestId)).toEqual([]);
    expect(detailOf(await readReview(api, key, id)).reply?.state).toBe('opted_out');
    clock.set(NIGHT);
  });

  it('a held reply a stopped process was handing over is unknown, and is not sent again', async () => {
    const { id, requestId } = await heldReview('Interrupted.');
    // As a process leaves it when it stops after marking it sending, before the carrier answered.
    await execute(api.ctx.store, "UPDATE review_replies SET state = 'sending' WHERE text = 'Interrupted.'");
    clock.set(MORNING + 7_200_000);
    await api.ctx.jobs.drain();
    expect(await replies(requestId)).toEqual([]);
    expect(detailOf(await readReview(api, key, id)).reply).toMatchObject({
      state: 'unknown',
      error: expect.stringMatching(/not sent again by itself/),
    });
    clock.set(NIGHT);
  });

  it('keeps reply attempts 90 days: a flood of them is purged down to each review’s latest', async () => {
    const { id } = await directReview(api, key, { channel: 'link' });
    let version = detailOf(await readReview(api, key, id)).version;
    for (let i = 0; i < 120; i++)
      version = detailOf(await reply(api, key, id, { text: `Take ${i}`, version })).version;
    const count = async () =>
      Number(
        (
          await queryOne<{ n: number }>(
            api.ctx.store,
            'SELECT count(*) AS n FROM review_replies WHERE review_id = $1',
            Number(id.slice(4)),
          )
        )?.n,
      );
    expect(await count()).toBe(120);
    clock.advance(91 * 86_400_000);
    await api.ctx.jobs.drain();
    expect(await count()).toBe(1);
    expect(detailOf(await readReview(api, key, id))).toMatchObject({
      response_text: 'Take 119',
      reply: { text: 'Take 119' },
    });
  });
});
