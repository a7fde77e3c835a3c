import { randomUUID } from 'node:crypto';
import { REPLY_TEXT_MAX } from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { rollupDrift } from '../src/analytics/recount.ts';
import {
  describeEachEngine,
  expectFailure,
  getJson,
  outboxFor,
  queryOne,
  uniqueEmail,
  uniquePhone,
  writeJson,
} from './helpers.ts';
import { detailOf, directReview, readReview, reply, setStatus, withdraw } from './support/replies.ts';

// Answering a review left through our own page, over real HTTP on both engines: one review read
// alone, a reply that reaches the customer by their request's channel (and the dev outbox), the
// written-down transitions and their 409s, lost updates refused with the current reply, one
// delivery per Idempotency-Key, the scope and the Origin rule.

describeEachEngine({}, (api) => {
  let key: string;
  let readOnly: string;
  let other: string;

  beforeAll(async () => {
    await api.business('cafe', 'Cafe Ana', null);
    await api.business('rival', 'Rival Cafe', null);
    key = await api.key('cafe');
    readOnly = await api.key('cafe', ['reviews:read']);
    other = await api.key('rival');
  });

  describe('GET /api/v1/reviews/{id}', () => {
    it('answers one review with its source, version and no reply yet; another business’s is 404', async () => {
      const { id, requestId } = await directReview(api, key, {
        customerPhone: uniquePhone(),
        customerName: 'Mia',
      });
      const found = await readReview(api, readOnly, id);
      expect(found.status).toBe(200);
      const review = detailOf(found);
      expect(review).toMatchObject({
        id,
        rating: 2,
        response_status: 'pending',
        author_name: 'Mia',
        response_text: null,
        responded_at: null,
        responded_by: null,
        platform: 'direct',
        source: { platform: 'direct', requestId, channel: 'sms' },
        reply: null,
      });
      expectFailure(await readReview(api, other, id), 'review_not_found');
      expectFailure(await readReview(api, key, 'rev_999999999'), 'review_not_found');
      expectFailure(await readReview(api, key, 'nope'), 'review_not_found');
    });
  });

  describe('replying to a review left through our page', () => {
    it('sends the reply to the customer by the request’s channel, sets responded, and names who answered', async () => {
      const phone = uniquePhone();
      const { id, requestId } = await directReview(api, key, { customerPhone: phone });
      const answer = await reply(api, key, id, {
        text: 'Sorry — next one is on us.',
        respondedBy: 'ana@cafe.example',
      });
      expect(answer.status).toBe(200);
      const review = detailOf(answer);
      expect(review).toMatchObject({
        response_status: 'responded',
        response_text: 'Sorry — next one is on us.',
        responded_by: 'ana@cafe.example',
        reply: {
          action: 'reply',
          to: 'customer',
          state: 'sent',
          channel: 'sms',
          text: 'Sorry — next one is on us.',
        },
      });
      expect(review.responded_at).not.toBeNull();
      const [message] = await outboxFor(api, requestId);
      expect(message).toMatchObject({ reply: true, channel: 'sms', to: phone });
      expect(message!.body).toBe('Cafe Ana: Sorry — next one is on us. Reply STOP to opt out.');
      // The reply's leg is the request's, so its receipts are too.
      const record = await getJson(api, `/api/v1/requests/${requestId}`, key);
      expect(record.body.data.legs.map((l: { kind: string }) => l.kind)).toEqual(['request', 'reply']);
      expect(await rollupDrift(api.ctx.store.db)).toEqual([]);
    });

    it('by email for an email request, with the customer’s link to opt out', async () => {
      const email = uniqueEmail();
      const { id, requestId } = await directReview(api, key, { customerEmail: email, channel: 'email' });
      expect(detailOf(await reply(api, key, id, { text: 'Thank you!' })).reply).toMatchObject({
        state: 'sent',
        channel: 'email',
      });
      const [message] = await outboxFor(api, requestId);
      expect(message).toMatchObject({
        reply: true,
        channel: 'email',
        to: email,
        subject: 'Cafe Ana replied to your review',
      });
      expect(message!.body).toContain('Thank you!\n\n— Cafe Ana');
      expect(message!.body).toContain('/r/');
    });

    it('stores and does not send to a customer who opted out, and says so', async () => {
      const { id, requestId, token } = await directReview(api, key, { customerPhone: uniquePhone() });
      await api.ctx.store.requests.optOut((await api.ctx.store.requests.byToken(token))!, api.ctx.now());
      const review = detailOf(await reply(api, key, id, { text: 'Noted, thanks.' }));
      expect(review).toMatchObject({ response_status: 'responded', response_text: 'Noted, thanks.' });
      expect(review.reply).toMatchObject({ state: 'opted_out' });
      expect((await outboxFor(api, requestId)).filter((m) => m.reply)).toEqual([]);
    });

    it('stores and does not send when the request was a shared link (no contact)', async () => {
      const { id, requestId } = await directReview(api, key, { channel: 'link' });
      expect(detailOf(await reply(api, key, id, { text: 'Thanks for the kind words.' })).reply).toMatchObject(
        {
          state: 'no_contact',
          channel: null,
        },
      );
      expect(await outboxFor(api, requestId)).toEqual([]);
    });

    it('refuses a reply over 4,096 characters, and one too long for a text message to an SMS customer', async () => {
      const { id } = await directReview(api, key, { customerPhone: uniquePhone() });
      const tooLong = await reply(api, key, id, { text: 'x'.repeat(REPLY_TEXT_MAX + 1) });
      expectFailure(tooLong, 'validation_failed');
      expect(tooLong.body.fields.text).toMatch(/at most 4096/);
      const sms = await reply(api, key, id, { text: 'x'.repeat(1600) });
      expectFailure(sms, 'validation_failed');
      expect(sms.body.fields.text).toMatch(/answered by text message/);
      expect(detailOf(await readReview(api, key, id)).response_status).toBe('pending');
    });
  });

  describe('one reply per Idempotency-Key', () => {
    it('a retry with the same key answers the review again and delivers nothing more; another body is 422', async () => {
      const { id, requestId } = await directReview(api, key, { customerPhone: uniquePhone() });
      const idem = randomUUID();
      const first = await reply(api, key, id, { text: 'Once only.' }, idem);
      const again = await reply(api, key, id, { text: 'Once only.' }, idem);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotency-replayed')).toBe('true');
      expect(detailOf(again)).toEqual(detailOf(first));
      expect(await outboxFor(api, requestId)).toHaveLength(2); // the request's and one reply
      expectFailure(await reply(api, key, id, { text: 'Something else.' }, idem), 'idempotency_mismatch');
      expectFailure(await reply(api, key, id, { text: 'No key.' }, null), 'idempotency_key_missing');
      expectFailure(await reply(api, key, id, { text: 'Bad key.' }, 'not-a-uuid'), 'idempotency_key_invalid');
    });
  });

  describe('lost updates', () => {
    it('refuses to overwrite a reply the caller did not read (409 with the current reply), accepts the version it read', async () => {
      const { id, requestId } = await directReview(api, key, { customerPhone: uniquePhone() });
      const read = detailOf(await readReview(api, key, id));
      // Two people answer the same version: the first wins, the second gets the current reply.
      expect((await reply(api, key, id, { text: 'First answer.', version: read.version })).status).toBe(200);
      const lost = await reply(api, key, id, { text: 'Second answer.', version: read.version });
      expectFailure(lost, 'review_changed');
      expect(lost.body.current).toMatchObject({
        response_text: 'First answer.',
        response_status: 'responded',
      });
      // Without a version, a reply never overwrites one.
      expectFailure(await reply(api, key, id, { text: 'Blind overwrite.' }), 'review_changed');
      // With the version just read, the reply is replaced, and the corrected words go out too.
      const replaced = detailOf(
        await reply(api, key, id, { text: 'Corrected answer.', version: lost.body.current.version }),
      );
      expect(replaced.response_text).toBe('Corrected answer.');
      expect((await outboxFor(api, requestId)).filter((m) => m.reply).map((m) => m.body)).toEqual([
        'Cafe Ana: Corrected answer. Reply STOP to opt out.',
        'Cafe Ana: First answer. Reply STOP to opt out.',
      ]);
    });
  });

  describe('the transitions', () => {
    it('ignore and reopen a pending review; asking for the status it has changes nothing', async () => {
      const { id } = await directReview(api, key, { customerPhone: uniquePhone() });
      const ignored = detailOf(await setStatus(api, key, id, { status: 'ignored' }));
      expect(ignored.response_status).toBe('ignored');
      const again = detailOf(await setStatus(api, key, id, { status: 'ignored' }));
      expect(again.version).toBe(ignored.version);
      expectFailure(
        await setStatus(api, key, id, { status: 'pending', version: ignored.version - 1 }),
        'review_changed',
      );
      const reopened = detailOf(
        await setStatus(api, key, id, { status: 'pending', version: ignored.version }),
      );
      expect(reopened.response_status).toBe('pending');
      expect(await rollupDrift(api.ctx.store.db)).toEqual([]);
    });

    it('an ignored review can still be answered; an answered one is neither ignored nor reopened, only withdrawn', async () => {
      const { id } = await directReview(api, key, { customerPhone: uniquePhone() });
      await setStatus(api, key, id, { status: 'ignored' });
      expect(detailOf(await reply(api, key, id, { text: 'Changed our mind.' })).response_status).toBe(
        'responded',
      );
      expectFailure(await setStatus(api, key, id, { status: 'ignored' }), 'transition_refused');
      expectFailure(await setStatus(api, key, id, { status: 'pending' }), 'transition_refused');
      expectFailure(await setStatus(api, key, id, { status: 'responded' }), 'validation_failed');
      const withdrawn = detailOf(await withdraw(api, key, id));
      expect(withdrawn).toMatchObject({
        response_status: 'pending',
        response_text: null,
        responded_at: null,
      });
      expect(withdrawn.reply).toMatchObject({ action: 'withdraw', state: 'withdrawn', to: 'customer' });
      expectFailure(await withdraw(api, key, id), 'transition_refused');
      // The first reply's time stays: the median time to first reply counts the first.
      const row = await queryOne<{ first_responded_at: number | null }>(
        api.ctx.store,
        'SELECT first_responded_at FROM reviews WHERE id = $1',
        Number(id.slice(4)),
      );
      expect(row?.first_responded_at).not.toBeNull();
      expect(await rollupDrift(api.ctx.store.db)).toEqual([]);
    });
  });

  describe('analytics', () => {
    it('reports the median time to first reply of the window’s answered reviews (a withdrawal keeps the first)', async () => {
      await api.business('timing', 'Timing Cafe', null);
      const timing = await api.key('timing');
      const start = api.clock.now;
      const reviews: { id: string }[] = [];
      for (let i = 0; i < 4; i++) reviews.push(await directReview(api, timing, { channel: 'link' }));
      const replyAfter = async (index: number, seconds: number) => {
        api.clock.now = start + seconds * 1000;
        await reply(api, timing, reviews[index]!.id, { text: `After ${seconds} s.` });
      };
      const figures = async () => (await getJson(api, '/api/v1/analytics?days=7', timing)).body.data.replies;
      expect(await figures()).toEqual({ firstReplies: 0, medianFirstReplySeconds: null });
      await replyAfter(0, 60);
      await replyAfter(1, 600);
      await replyAfter(2, 120);
      expect(await figures()).toEqual({ firstReplies: 3, medianFirstReplySeconds: 120 });
      await replyAfter(3, 300);
      expect(await figures()).toEqual({ firstReplies: 4, medianFirstReplySeconds: 210 });
      await withdraw(api, timing, reviews[1]!.id);
      expect(await figures()).toEqual({ firstReplies: 4, medianFirstReplySeconds: 210 });
      api.clock.now = start;
    });
  });

  describe('who may', () => {
    it('needs reviews:reply (403 like any scope) and the Origin rule; reading needs only reviews:read', async () => {
      const { id } = await directReview(api, key, { customerPhone: uniquePhone() });
      expectFailure(await reply(api, readOnly, id, { text: 'Hi.' }), 'scope_missing');
      expectFailure(await setStatus(api, readOnly, id, { status: 'ignored' }), 'scope_missing');
      expectFailure(await withdraw(api, readOnly, id), 'scope_missing');
      const noOrigin = await api.fetch(`/api/v1/reviews/${id}`, {
        method: 'PATCH',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'ignored' }),
      });
      expect(noOrigin.status).toBe(403);
      expect(detailOf(await readReview(api, key, id)).response_status).toBe('pending');
      const put = await writeJson(api, 'PUT', `/api/v1/reviews/${id}/reply`, key, { text: 'x' });
      expectFailure(put, 'method_not_allowed');
      expect(put.headers.get('allow')).toBe('POST, DELETE');
    });

    it('refuses a Google review without a connection, and a Facebook review (answered on Facebook)', async () => {
      const cafe = (await api.ctx.store.businesses.bySlug('cafe'))!;
      const insert = (platform: string, externalId: string | null) =>
        api.ctx.store.transaction(() =>
          api.ctx.store.reviews.insert({
            businessId: cafe.id,
            rating: 1,
            status: 'pending',
            authorName: 'Someone',
            text: 'Bad.',
            reviewAt: api.ctx.now(),
            responseText: null,
            platform,
            externalId,
            requestId: null,
            createdAt: api.ctx.now(),
          }),
        );
      const google = await insert('google', `g-${randomUUID()}`);
      const facebook = await insert('facebook', null);
      expectFailure(await reply(api, key, `rev_${google.id}`, { text: 'Hi.' }), 'google_not_connected');
      expectFailure(await reply(api, key, `rev_${facebook.id}`, { text: 'Hi.' }), 'reply_not_offered');
      expect(detailOf(await readReview(api, key, `rev_${google.id}`)).reply).toBeNull();
    });
  });
});
