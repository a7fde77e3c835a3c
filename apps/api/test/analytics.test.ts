import {
  analyticsOutputSchema,
  analyticsResultSchema,
  completionFigures,
  DAYS_DEFAULT,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { importReviews } from '../src/demo/import.ts';
import { recordHandoff, recordOpen, submitFeedback } from '../src/review-page/visits.ts';
import { describeEachEngine, expectFailure, getJson, send, uniqueEmail, uniquePhone } from './helpers.ts';

// GET /api/v1/analytics: the window, the cohort rule for requests, reviews and synced reviews
// apart, zero-filled daily series, and the caveat that completed includes hand-offs.

describeEachEngine({ monthlySendAllowance: 0 }, (api) => {
  const DAY = 86_400_000;
  let key: string;
  let emptyKey: string;
  let today: number; // noon UTC today, so a test never straddles midnight

  const schema = successEnvelopeSchema(analyticsOutputSchema);

  async function analytics(query: string, k = key) {
    const result = await getJson(api, `/api/v1/analytics${query}`, k);
    expect(result.status).toBe(200);
    // What we write parses strictly, and with the tolerant schema every client uses.
    successEnvelopeSchema(analyticsResultSchema).parse(result.body);
    return schema.parse(result.body).data;
  }

  const tokenOf = (link: string) => link.split('/r/')[1]!;

  beforeAll(async () => {
    const now = new Date();
    today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12);
    api.clock.now = today;
    await api.business('bistro');
    await api.business('empty');
    key = await api.key('bistro');
    emptyKey = await api.key('empty');
    const store = api.ctx.store;

    // 10 days ago: one SMS request, opened and rated today (cohort of 10 days ago).
    api.clock.now = today - 10 * DAY;
    const old = await send(api, key, { customerName: 'Old', customerPhone: uniquePhone() });
    api.clock.now = today;
    await recordOpen(store, tokenOf(old.body.data.reviewLink), today);
    await submitFeedback(store, tokenOf(old.body.data.reviewLink), { rating: 2, comment: 'slow' }, today);

    // Today: sms (opened only), email (handed off), link (rated 5 and handed off), one failure.
    const sms = await send(api, key, { customerPhone: uniquePhone() });
    await recordOpen(store, tokenOf(sms.body.data.reviewLink), today);
    const email = await send(api, key, { customerEmail: uniqueEmail(), channel: 'email' });
    await recordHandoff(store, tokenOf(email.body.data.reviewLink), today);
    const link = await send(api, key, { channel: 'link' });
    await submitFeedback(store, tokenOf(link.body.data.reviewLink), { rating: 5, comment: '' }, today);
    await recordHandoff(store, tokenOf(link.body.data.reviewLink), today);
    expect((await send(api, key, { customerPhone: '+14155550000' })).status).toBe(502);

    // Synced reviews: two in the last week, one 40 days ago.
    await importReviews(
      store,
      'bistro',
      [
        {
          rating: 4,
          platform: 'google',
          review_date: new Date(today - 2 * DAY).toISOString(),
          response_status: 'responded',
          external_id: 'g1',
        },
        {
          rating: 3,
          platform: 'yelp',
          review_date: new Date(today - 1 * DAY).toISOString(),
          status: 'ignored',
          external_id: 'y1',
        },
        {
          rating: 1,
          platform: 'facebook',
          review_date: new Date(today - 40 * DAY).toISOString(),
          external_id: 'f1',
        },
      ],
      today,
    );
  });

  describe('days (1 to 365)', () => {
    it.each(['0', '366', '-1', 'abc', '7.5', '', '1&days=2'])('days=%s → 400 naming days', async (days) => {
      const result = await getJson(api, `/api/v1/analytics?days=${days}`, key);
      expect(expectFailure(result, 'validation_failed')).toContain('days');
    });

    it('an unknown parameter is refused', async () => {
      expectFailure(await getJson(api, '/api/v1/analytics?window=7', key), 'validation_failed');
    });

    it.each([1, 365])('days=%i → a window of that many days ending today', async (days) => {
      const data = await analytics(`?days=${days}`);
      expect(data.rangeDays).toBe(days);
      expect(data.daily).toHaveLength(days);
      expect(data.to).toBe(new Date(today).toISOString().slice(0, 10));
      expect(data.daily.at(-1)!.date).toBe(data.to);
      expect(data.daily[0]!.date).toBe(data.from);
      expect(Date.parse(data.to) - Date.parse(data.from)).toBe((days - 1) * DAY);
      // Consecutive days, oldest first.
      data.daily.forEach((d, i) => {
        if (i > 0) expect(Date.parse(d.date) - Date.parse(data.daily[i - 1]!.date)).toBe(DAY);
      });
    });

    it(`defaults to ${DAYS_DEFAULT} days`, async () => {
      expect((await analytics('')).rangeDays).toBe(DAYS_DEFAULT);
    });
  });

  describe('figures', () => {
    it('an empty business: zeros, null averages and rates, zero-filled days', async () => {
      const data = await analytics('?days=7', emptyKey);
      expect(data.reviews).toMatchObject({ total: 0, avgRating: null, responseRate: null });
      expect(data.requests).toMatchObject({ total: 0, sent: 0, clickRate: null, completionRate: null });
      expect(data.synced).toEqual({
        total: 0,
        avgRating: null,
        byPlatform: { google: 0, facebook: 0, yelp: 0 },
      });
      expect(data.daily.every((d) => d.sent === 0 && d.reviews === 0 && d.avgRating === null)).toBe(true);
    });

    it('requests follow the cohort created in the window; completed counts feedback and hand-offs', async () => {
      const week = await analytics('?days=7');
      // Created today: sms, email, link (sent) and one failure.
      expect(week.requests).toMatchObject({
        total: 4,
        sent: 3,
        failed: 1,
        clicked: 3, // sms opened, email handed off, link rated (each implies an open)
        feedback: 1,
        handoffs: 2,
        completed: 2, // email (hand-off) and link (feedback + hand-off, counted once)
        reviewLeft: 2,
        byChannel: { sms: 2, email: 1, both: 0, link: 1 },
      });
      expect(week.requests.clickRate).toBeCloseTo(1);
      expect(week.requests.completionRate).toBeCloseTo(2 / 3);
      expect(completionFigures(week)).toEqual({ completed: 2, reviewLeft: 2 });

      // Ten days back the older request joins, completed by its feedback given today.
      const month = await analytics('?days=30');
      expect(month.requests).toMatchObject({ total: 5, sent: 4, completed: 3, feedback: 2, handoffs: 2 });
      const tenDaysAgo = month.daily.find(
        (d) => d.date === new Date(today - 10 * DAY).toISOString().slice(0, 10),
      )!;
      expect(tenDaysAgo).toMatchObject({ sent: 1, completed: 1, reviews: 0 });
    });

    it('reviews count every review dated in the window; synced ones are reported apart', async () => {
      const week = await analytics('?days=7');
      // Dated in the last 7 days: two direct (2★, 5★, left today) and two synced (4★, 3★).
      expect(week.reviews).toMatchObject({
        total: 4,
        avgRating: 3.5,
        responded: 1,
        ignored: 1,
        pending: 2,
        responseRate: 0.25,
        byRating: { '1': 0, '2': 1, '3': 1, '4': 1, '5': 1 },
      });
      expect(week.synced).toEqual({
        total: 2,
        avgRating: 3.5,
        byPlatform: { google: 1, facebook: 0, yelp: 1 },
      });
      const todayEntry = week.daily.at(-1)!;
      expect(todayEntry).toMatchObject({ sent: 3, completed: 2, reviews: 2, synced: 0, avgRating: 3.5 });

      const twoMonths = await analytics('?days=60');
      expect(twoMonths.synced.total).toBe(3);
      expect(twoMonths.synced.byPlatform.facebook).toBe(1);
      expect(twoMonths.reviews.total).toBe(5);
    });

    it('a request created yesterday and completed today stays in yesterday’s cohort', async () => {
      const store = api.ctx.store;
      const before = await analytics('?days=2');
      api.clock.now = today - DAY;
      const yesterday = await send(api, key, { customerPhone: uniquePhone() });
      api.clock.now = today;
      await submitFeedback(store, tokenOf(yesterday.body.data.reviewLink), { rating: 4, comment: '' }, today);
      const after = await analytics('?days=2');
      expect(after.daily[0]!.sent - before.daily[0]!.sent).toBe(1);
      expect(after.daily[0]!.completed - before.daily[0]!.completed).toBe(1);
      expect(after.daily[1]!.completed).toBe(before.daily[1]!.completed);
      expect(after.daily[1]!.reviews - before.daily[1]!.reviews).toBe(1); // the review is dated today
      expect((await analytics('?days=1')).requests.sent).toBe(before.daily[1]!.sent);
    });
  });
});
