import { ENDPOINTS, MESSAGES, reviewListOutputSchema, successEnvelopeSchema } from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey, rotateApiKey } from '../src/accounts/keys.ts';
import { describeEachEngine, expectFailure, getJson, send, startTestApi, uniquePhone } from './helpers.ts';

// Keys and limits (docs/api.md): both header forms, every 401 cause, every 403 cause, keys never in
// URLs, the per-key limit.

describeEachEngine({}, (api, engine) => {
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    await api.business('alpha');
    await api.business('beta');
    key = await api.key('alpha');
    otherKey = await api.key('beta');
    // One review in each business, to show a key only ever sees its own.
    const store = api.ctx.store;
    for (const [slug, text] of [
      ['alpha', 'alpha review'],
      ['beta', 'beta review'],
    ] as const) {
      const businessId = (await store.businesses.bySlug(slug))!.id;
      await store.transaction(async () =>
        store.reviews.insert({
          businessId,
          rating: 4,
          status: 'pending',
          authorName: 'A',
          text,
          reviewAt: api.clock.now,
          responseText: null,
          platform: 'google',
          externalId: null,
          requestId: null,
          createdAt: api.clock.now,
        }),
      );
    }
  });

  describe('the two header forms', () => {
    it('accepts X-API-Key', async () => {
      const result = await getJson(api, '/api/v1/reviews', key);
      expect(result.status).toBe(200);
      successEnvelopeSchema(reviewListOutputSchema).parse(result.body);
    });

    it('records when a key was last used (for key list), without writing on every call', async () => {
      const fresh = await api.key('alpha');
      const id = await api.keyIdOf(fresh);
      expect((await getJson(api, '/api/v1/reviews', fresh)).status).toBe(200);
      expect((await api.ctx.store.keys.byId(id))!.last_used_at).toBeNull(); // written in the background
      await api.ctx.keyUsage.flush();
      expect((await api.ctx.store.keys.byId(id))!.last_used_at).toBe(api.clock.now);
    });

    it('accepts Authorization: Bearer, whatever the scheme’s case', async () => {
      for (const scheme of ['Bearer', 'bearer']) {
        const result = await getJson(api, '/api/v1/reviews', undefined, {
          authorization: `${scheme} ${key}`,
        });
        expect(result.status).toBe(200);
      }
    });
  });

  describe('401: key missing, unknown, malformed, revoked or expired', () => {
    it('no key at all', async () => {
      expectFailure(await getJson(api, '/api/v1/reviews'), 'key_missing');
    });

    it('an Authorization header of another scheme counts as no key', async () => {
      const result = await getJson(api, '/api/v1/reviews', undefined, { authorization: `Basic ${key}` });
      expectFailure(result, 'key_missing');
    });

    it.each([
      ['unknown key of the right shape', `rd_live_${'A'.repeat(43)}`],
      ['wrong prefix', `sk_live_${'A'.repeat(43)}`],
      ['truncated', 'rd_live_abc'],
      ['garbage', 'not a key'],
    ])('%s', async (_name, value) => {
      expectFailure(await getJson(api, '/api/v1/reviews', value), 'key_invalid');
    });

    it('a revoked key', async () => {
      const revoked = await api.key('alpha');
      expect((await getJson(api, '/api/v1/reviews', revoked)).status).toBe(200);
      await revokeApiKey(api.ctx.store, await api.keyIdOf(revoked), api.clock.now);
      expectFailure(await getJson(api, '/api/v1/reviews', revoked), 'key_invalid');
    });

    it('an expired key', async () => {
      const expiring = await api.key('alpha', undefined, { expiresInDays: 1 });
      expect((await getJson(api, '/api/v1/reviews', expiring)).status).toBe(200);
      api.clock.now += 86_400_000 + 1;
      try {
        expectFailure(await getJson(api, '/api/v1/reviews', expiring), 'key_invalid');
      } finally {
        api.clock.now -= 86_400_000 + 1;
      }
    });

    it('after rotation the old key is refused and the new one works', async () => {
      const original = await api.key('alpha', ['reviews:read']);
      const rotated = await rotateApiKey(api.ctx.store, await api.keyIdOf(original), api.clock.now);
      expectFailure(await getJson(api, '/api/v1/reviews', original), 'key_invalid');
      expect((await getJson(api, '/api/v1/reviews', rotated.key)).status).toBe(200);
      // Same scopes as before: still no analytics.
      expect((await getJson(api, '/api/v1/analytics', rotated.key)).status).toBe(403);
    });

    it('the POST endpoint too (with a valid Origin)', async () => {
      const result = await send(api, `rd_live_${'B'.repeat(43)}`, { channel: 'link' });
      expectFailure(result, 'key_invalid');
    });
  });

  describe('403: scope, business access', () => {
    it.each(Object.values(ENDPOINTS))('$method $path needs $scope', async (endpoint) => {
      const others = Object.values(ENDPOINTS)
        .map((e) => e.scope)
        .filter((s) => s !== endpoint.scope);
      const narrow = await api.key('alpha', others);
      const result =
        endpoint.method === 'POST'
          ? await send(api, narrow, { channel: 'link' })
          : await getJson(api, endpoint.path, narrow);
      expect(expectFailure(result, 'scope_missing')).toBe(MESSAGES.scopeMissing(endpoint.scope));
    });

    it('a key sees only its own business’s reviews', async () => {
      const alpha = await getJson(api, '/api/v1/reviews', key);
      const beta = await getJson(api, '/api/v1/reviews', otherKey);
      expect(alpha.body.data.reviews.map((r: { text: string }) => r.text)).toEqual(['alpha review']);
      expect(beta.body.data.reviews.map((r: { text: string }) => r.text)).toEqual(['beta review']);
      expect(alpha.body.data.total).toBe(1);
    });

    it('a key sees only its own business’s analytics', async () => {
      const alpha = await getJson(api, '/api/v1/analytics?days=1', key);
      const before = alpha.body.data.requests.total;
      expect((await send(api, otherKey, { channel: 'link' })).status).toBe(200);
      expect((await getJson(api, '/api/v1/analytics?days=1', key)).body.data.requests.total).toBe(before);
    });

    it('a key of a suspended business gets 403 until the business is resumed', async () => {
      await api.business('gamma');
      const gammaKey = await api.key('gamma');
      const gamma = (await api.ctx.store.businesses.bySlug('gamma'))!;
      await api.ctx.store.businesses.setSuspended(gamma.id, api.clock.now);
      expectFailure(await getJson(api, '/api/v1/reviews', gammaKey), 'business_suspended');
      expectFailure(await send(api, gammaKey, { channel: 'link' }), 'business_suspended');
      await api.ctx.store.businesses.setSuspended(gamma.id, null);
      expect((await getJson(api, '/api/v1/reviews', gammaKey)).status).toBe(200);
    });
  });

  describe('keys never in URLs', () => {
    it.each(['api_key', 'apiKey', 'key', 'token', 'access_token'])(
      '?%s=… is refused with 400',
      async (param) => {
        const result = await getJson(api, `/api/v1/reviews?${param}=${key}`);
        expectFailure(result, 'key_in_query');
      },
    );

    it('a key under any other parameter name is refused too, even with a valid header', async () => {
      const result = await getJson(api, `/api/v1/reviews?status=${key}`, key);
      expectFailure(result, 'key_in_query');
    });
  });

  describe('per-key request limit → 429 with Retry-After', () => {
    it('counts per key, answers 429 with Retry-After and RateLimit headers, then recovers', async () => {
      const limited = await api.key('alpha', undefined, { rateLimitPerMinute: 3 });
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof getJson>> | undefined;
      for (let i = 0; i < 4; i++) {
        last = await getJson(api, '/api/v1/reviews', limited);
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const message = expectFailure(last!, 'rate_limited');
      const retryAfter = Number(last!.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(20);
      expect(message).toBe(MESSAGES.rateLimited(retryAfter));
      expect(last!.headers.get('ratelimit-limit')).toBe('3');
      expect(last!.headers.get('ratelimit-remaining')).toBe('0');
      // Another key of the same business is not affected.
      expect((await getJson(api, '/api/v1/reviews', key)).status).toBe(200);
      // After Retry-After seconds the key may call again.
      api.clock.now += retryAfter * 1000;
      try {
        expect((await getJson(api, '/api/v1/reviews', limited)).status).toBe(200);
      } finally {
        api.clock.now -= retryAfter * 1000;
      }
    });

    it('reports the remaining allowance on successful calls', async () => {
      const limited = await api.key('alpha', undefined, { rateLimitPerMinute: 10 });
      const first = await getJson(api, '/api/v1/reviews', limited);
      expect(first.headers.get('ratelimit-limit')).toBe('10');
      expect(first.headers.get('ratelimit-remaining')).toBe('9');
      const second = await getJson(api, '/api/v1/reviews', limited);
      expect(second.headers.get('ratelimit-remaining')).toBe('8');
    });

    it('the default limit applies to keys without their own; RATE_LIMIT_PER_MINUTE=0 lifts every limit', async () => {
      const strict = await startTestApi({ rateLimitPerMinute: 2 }, { engine });
      const off = await startTestApi({ rateLimitPerMinute: 0 }, { engine });
      try {
        await strict.business('s');
        const k = await strict.key('s');
        const codes = [];
        for (let i = 0; i < 3; i++) codes.push((await getJson(strict, '/api/v1/reviews', k)).status);
        expect(codes).toEqual([200, 200, 429]);

        await off.business('o');
        const own = await off.key('o', undefined, { rateLimitPerMinute: 1 });
        for (let i = 0; i < 5; i++) {
          const result = await getJson(off, '/api/v1/reviews', own);
          expect(result.status).toBe(200);
          expect(result.headers.get('ratelimit-limit')).toBeNull();
        }
      } finally {
        await strict.stop();
        await off.stop();
      }
    });

    it('limits sends too', async () => {
      const limited = await api.key('alpha', undefined, { rateLimitPerMinute: 1 });
      expect((await send(api, limited, { channel: 'link' })).status).toBe(200);
      const second = await send(api, limited, { customerPhone: uniquePhone() });
      expectFailure(second, 'rate_limited');
      expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });
});
