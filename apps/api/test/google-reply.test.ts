import { randomUUID } from 'node:crypto';
import { FakeClock } from '@review-desk/server/clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGoogle, startFakeGoogle } from '../../../test/support/fake-google/server.ts';
import { rollupDrift } from '../src/analytics/recount.ts';
import { ENGINES, expectFailure, queryOne, useTestApi } from './helpers.ts';
import { ACCOUNT, connect, googleOverrides, runSync } from './support/google.ts';
import { detailOf, readReview, reply, setStatus, withdraw } from './support/replies.ts';

// Answering Google reviews against the stand-in: the reply is posted to Google and the review is
// `responded` only once Google took it; Google's refusal leaves it pending with Google's words;
// an answer lost in transit leaves it `unknown` — never posted again by itself, settled by the
// next sync when Google shows it — and a retry is the user's, with a new Idempotency-Key.

const clock = new FakeClock(Date.parse('2030-06-01T10:00:00Z'));
const fake: FakeGoogle = await startFakeGoogle({ now: () => clock.now() });
afterAll(() => fake.close());

describe.each(ENGINES)('%s', (engine) => {
  const api = useTestApi(googleOverrides(fake, 500), { engine, clock });
  const location = `${engine === 'sqlite' ? 3 : 4}0000000000000000001`;
  let key: string;
  let businessId: number;

  /** The review of the stand-in's `index`th review, as the service stores it. */
  async function googleReview(index: number) {
    const external = fake.reviewsOf(ACCOUNT, location)[index]!;
    const row = await queryOne<{ id: number }>(
      api.ctx.store,
      "SELECT id FROM reviews WHERE business_id = $1 AND platform = 'google' AND external_id = $2",
      businessId,
      external.reviewId,
    );
    return { id: `rev_${row!.id}`, external };
  }
  const puts = () => fake.calls.filter((c) => c.kind === 'reply');

  beforeAll(async () => {
    businessId = (await api.business('grill', 'Grill 9', null)).id;
    key = await api.key('grill');
    fake.reviewsOf(ACCOUNT, location);
    fake.addReviews(
      ACCOUNT,
      location,
      Array.from({ length: 8 }, (_, i) => ({
        rating: 1,
        comment: `Awful ${i}`,
        createTime: clock.now() - i * 60_000,
      })),
    );
    await connect(api, fake, key, location);
    await runSync(api, clock, businessId);
  });

  it('posts the reply to Google; the review is responded, and Google holds the text', async () => {
    const { id, external } = await googleReview(0);
    const answer = await reply(api, key, id, {
      text: 'We are sorry. Please call us.',
      respondedBy: 'manager@grill.example',
    });
    expect(answer.status).toBe(200);
    const review = detailOf(answer);
    expect(review).toMatchObject({
      response_status: 'responded',
      response_text: 'We are sorry. Please call us.',
      responded_by: 'manager@grill.example',
      source: { platform: 'google', requestId: null, channel: null },
      reply: { to: 'google', state: 'posted', channel: null, error: null },
    });
    expect(external.reply?.comment).toBe('We are sorry. Please call us.');
    expect(await rollupDrift(api.ctx.store.db)).toEqual([]);
  });

  it('a Google refusal leaves the review pending with Google’s words, never responded here only', async () => {
    const { id, external } = await googleReview(1);
    fake.fail('reply', { kind: 'status', status: 400, message: 'Request contains an invalid argument.' });
    const review = detailOf(await reply(api, key, id, { text: 'Try this.' }));
    expect(review).toMatchObject({
      response_status: 'pending',
      response_text: null,
      reply: { state: 'failed', error: 'Request contains an invalid argument.' },
    });
    expect(external.reply).toBeNull();
    // The version moved: a second try names the one it read now.
    const retried = detailOf(await reply(api, key, id, { text: 'Try this.', version: review.version }));
    expect(retried.reply?.state).toBe('posted');
  });

  it('an answer lost in transit is unknown: the same key never posts again; the sync settles it; a retry is the user’s', async () => {
    const { id, external } = await googleReview(2);
    fake.fail('reply', { kind: 'reset' });
    const idem = randomUUID();
    const before = puts().length;
    const lost = detailOf(await reply(api, key, id, { text: 'Lost in transit.' }, idem));
    expect(lost).toMatchObject({ response_status: 'pending', reply: { state: 'unknown' } });
    expect(external.reply?.comment).toBe('Lost in transit.'); // Google did take it
    expectFailure(await reply(api, key, id, { text: 'Lost in transit.' }, idem), 'outcome_unknown');
    expect(puts().length - before).toBe(1);
    // The next sync sees the reply on Google: posted after all.
    clock.advance(900_000);
    await runSync(api, clock, businessId);
    expect(detailOf(await readReview(api, key, id))).toMatchObject({
      response_status: 'responded',
      response_text: 'Lost in transit.',
      reply: { state: 'posted' },
    });

    const other = await googleReview(3);
    fake.fail('reply', { kind: 'hang' });
    const hung = detailOf(await reply(api, key, other.id, { text: 'No answer.' }));
    expect(hung.reply).toMatchObject({ state: 'unknown', error: expect.stringMatching(/did not answer/) });
    const tried = puts().length;
    const again = detailOf(await reply(api, key, other.id, { text: 'No answer.', version: hung.version }));
    expect(again.reply?.state).toBe('posted');
    expect(puts().length - tried).toBe(1);
  });

  it('withdrawing deletes the reply on Google; ignore and reopen change nothing there', async () => {
    const { id, external } = await googleReview(4);
    const answered = detailOf(await reply(api, key, id, { text: 'Temporary.' }));
    const gone = detailOf(await withdraw(api, key, id, answered.version));
    expect(gone).toMatchObject({
      response_status: 'pending',
      response_text: null,
      reply: { action: 'withdraw', state: 'withdrawn', to: 'google' },
    });
    expect(external.reply).toBeNull();
    const calls = fake.calls.length;
    expect(detailOf(await setStatus(api, key, id, { status: 'ignored' })).response_status).toBe('ignored');
    expect(detailOf(await setStatus(api, key, id, { status: 'pending' })).response_status).toBe('pending');
    expect(fake.calls.length).toBe(calls);
  });

  it('a connection needing its owner refuses replies (409) and posts nothing', async () => {
    const { id } = await googleReview(5);
    fake.fail('reply', { kind: 'status', status: 403 });
    const refused = detailOf(await reply(api, key, id, { text: 'Forbidden.' }));
    expect(refused.reply).toMatchObject({ state: 'failed', error: 'The caller does not have permission' });
    const before = puts().length;
    expectFailure(
      await reply(api, key, id, { text: 'Again.', version: refused.version }),
      'google_not_connected',
    );
    expect(puts().length).toBe(before);
  });
});

// Replicas share PostgreSQL (SQLite is one process's database: docs/deploy.md).
describe('two replicas syncing one location (postgres)', () => {
  const location = '60000000000000000001';
  const first = useTestApi(googleOverrides(fake), { engine: 'postgres', clock });
  let second: Awaited<ReturnType<typeof import('../src/server.ts').startApi>> | undefined;
  afterAll(() => second?.close());

  it('read it once', async () => {
    const { startApi } = await import('../src/server.ts');
    const businessId = (await first.business('twin', 'Twin Diner', null)).id;
    const key = await first.key('twin');
    fake.addReviews(
      ACCOUNT,
      location,
      Array.from({ length: 140 }, (_, i) => ({ rating: 4, comment: `Nice ${i}` })),
    );
    const config = { ...first.ctx.config, port: 0 };
    second = await startApi(config, { clock });
    const lists = fake.count('list');
    await connect(first, fake, key, location);
    await Promise.all([first.ctx.jobs.drain(), second.ctx.jobs.drain()]);
    expect(fake.count('list') - lists).toBe(3);
    const row = await queryOne<{ n: number }>(
      first.ctx.store,
      "SELECT count(*) AS n FROM reviews WHERE business_id = $1 AND platform = 'google'",
      businessId,
    );
    expect(Number(row?.n)).toBe(140);
  });
});
