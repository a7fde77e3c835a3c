import { hiddenNotice, WIDGET_REVIEWS_MAX } from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine, expectFailure, getJson } from './helpers.ts';
import {
  customerReview,
  ownerWidget,
  ownerWrite,
  storedReviews,
  textOf,
  visitorData,
} from './support/widget.ts';

// What a visitor of a business's website sees (docs/widget.md): only reviews their customers
// agreed to show, every rating, newest first; the average over every review of the window; the
// reviews hidden for a content reason counted and said; other sites as figures and a link. The
// same in the JSON the script reads, the HTML rendition and the public page.

describeEachEngine({}, (api) => {
  let key: string;
  let businessId: number;
  let id: string;

  beforeAll(async () => {
    businessId = (await api.business('bakery', 'Crumb & Co', 'https://g.page/r/crumb-and-co/review')).id;
    key = await api.key('bakery');
    id = (await ownerWidget(api, key)).id;
  });

  const html = async (path: string) => {
    const response = await api.fetch(path);
    return { status: response.status, headers: response.headers, text: textOf(await response.text()) };
  };

  it('shows a review only when its customer ticked the box, in the JSON, the HTML and the page', async () => {
    await customerReview(api, key, {
      name: 'Noor Haddad',
      rating: 2,
      comment: 'Cold coffee, kind staff',
      consent: true,
    });
    await customerReview(api, key, {
      name: 'Lars Berg',
      rating: 5,
      comment: 'Private words for the owner',
      consent: false,
    });
    const { data } = await visitorData(api, id);
    if (!data?.enabled) throw new Error('the widget is on');
    expect(data.reviews).toEqual([
      expect.objectContaining({ rating: 2, author: 'Noor H.', text: 'Cold coffee, kind staff' }),
    ]);
    // Both count: consent is about the words and the name, not the rating.
    expect(data.summary).toEqual({ count: 2, average: 3.5 });
    for (const path of [`/widget/v1/${id}.html`, `/reviews/${id}`]) {
      const page = await html(path);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Cold coffee, kind staff');
      expect(page.text).toContain('Noor H.');
      expect(page.text).toContain('3.5 out of 5 from 2 reviews in the last 12 months');
      expect(page.text).not.toContain('Private words');
      expect(page.text).not.toContain('Lars');
      expect(page.text).not.toContain('Haddad');
    }
  });

  it('lets the customer change the answer on the thanks page, and the widget follows at once', async () => {
    const { path, cookie } = await customerReview(api, key, {
      name: 'Ines Moreau',
      rating: 4,
      comment: 'Lovely croissants',
      consent: true,
    });
    expect((await visitorData(api, id)).body.data.reviews[0].text).toBe('Lovely croissants');
    const thanks = await api.fetch(path, { headers: { cookie } });
    const page = await thanks.text();
    expect(textOf(page)).toContain(
      'You agreed that Crumb & Co may show your review on its website, signed “Ines M.”',
    );
    const formToken = page.match(
      /action="[^"]+\/website">\s*<input type="hidden" name="form_token" value="([^"]+)"/,
    )?.[1];
    const withdrawn = await api.fetch(`${path}/website`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: api.ctx.site.publicOrigin,
        cookie,
      },
      body: new URLSearchParams({ form_token: formToken ?? '', website_consent: 'no' }).toString(),
    });
    expect(withdrawn.status).toBe(303);
    const texts = (await visitorData(api, id)).body.data.reviews.map((r: { text: string }) => r.text);
    expect(texts).not.toContain('Lovely croissants');
    expect((await html(`/reviews/${id}`)).text).not.toContain('Lovely croissants');
  });

  it('shows every rating, newest first, and counts every review of the last 12 months', async () => {
    const before = (await visitorData(api, id)).body.data.summary;
    await storedReviews(api, businessId, [
      { rating: 1, consent: true, daysAgo: 5 },
      { rating: 5, consent: true, daysAgo: 4 },
      { rating: 3, consent: true, daysAgo: 3 },
      { rating: 2, consent: false, daysAgo: 2 },
      { rating: 4, consent: true, daysAgo: 1 },
      // Out of the window: neither counted nor shown.
      { rating: 1, consent: true, daysAgo: 400 },
    ]);
    const { data } = await visitorData(api, id);
    if (!data?.enabled) throw new Error('the widget is on');
    const ratings = data.reviews.map((r) => r.rating);
    for (const rating of [1, 2, 3, 4, 5]) expect(ratings).toContain(rating);
    const dates = data.reviews.map((r) => r.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(data.summary.count).toBe(before.count + 5);
    expect(data.reviews.every((r) => r.date >= data.window.from)).toBe(true);
    expect(data.reviews.length).toBeLessThanOrEqual(WIDGET_REVIEWS_MAX);
  });

  it('hides a review reported for a content reason, says how many, and keeps its rating in the average', async () => {
    const before = await visitorData(api, id);
    const owner = await ownerWidget(api, key);
    const target = owner.shown.find((r) => r.rating === 1)!;
    const hidden = await ownerWrite(api, key, 'PUT', `/api/v1/widget/hidden/${target.id}`, {
      reason: 'private_data',
    });
    expect(hidden.status).toBe(200);
    expect(hidden.body.data.hidden).toEqual([
      expect.objectContaining({ id: target.id, reason: 'private_data', text: target.text }),
    ]);
    expect(hidden.body.data.shown.map((r: { id: string }) => r.id)).not.toContain(target.id);

    const { data } = await visitorData(api, id);
    if (!data?.enabled || !before.data?.enabled) throw new Error('the widget is on');
    expect(data.hidden.count).toBe(1);
    expect(data.words.hidden).toBe(hiddenNotice(1));
    expect(data.summary).toEqual(before.data.summary);
    expect(data.reviews.map((r) => r.text)).not.toContain(target.text);
    const page = await html(`/widget/v1/${id}.html`);
    expect(page.text).toContain('1 review hidden for privacy or abuse.');
    expect(page.text).not.toContain(target.text!);

    const shownAgain = await ownerWrite(api, key, 'DELETE', `/api/v1/widget/hidden/${target.id}`);
    expect(shownAgain.status).toBe(200);
    expect(shownAgain.body.data.hidden).toEqual([]);
    expect((await visitorData(api, id)).body.data.hidden.count).toBe(0);
  });

  it('refuses to hide what is not the business’s own review, or for a reason not on the list', async () => {
    const other = await api.business('elsewhere');
    const [foreign] = await storedReviews(api, other.id, [{ rating: 1, consent: true }]);
    expectFailure(
      await ownerWrite(api, key, 'PUT', `/api/v1/widget/hidden/rev_${foreign}`, { reason: 'abuse' }),
      'review_not_found',
    );
    const [synced] = await storedReviews(api, businessId, [{ rating: 1, platform: 'google' }]);
    expectFailure(
      await ownerWrite(api, key, 'PUT', `/api/v1/widget/hidden/rev_${synced}`, { reason: 'abuse' }),
      'review_synced',
    );
    const owner = await ownerWidget(api, key);
    const bad = await ownerWrite(api, key, 'PUT', `/api/v1/widget/hidden/${owner.shown[0]!.id}`, {
      reason: 'negative',
    });
    expect(expectFailure(bad, 'validation_failed')).toMatch(/reason must be one of abuse, private_data/);
    expectFailure(
      await getJson(api, '/api/v1/widget', await api.key('bakery', ['reviews:read'])),
      'scope_missing',
    );
  });

  it('shows another site’s reviews as its figures and link only, never their words', async () => {
    await storedReviews(api, businessId, [
      { rating: 5, platform: 'google', author: 'Gwen Google', consent: true },
      { rating: 4, platform: 'google', author: 'Gus Google' },
    ]);
    const { data } = await visitorData(api, id);
    if (!data?.enabled) throw new Error('the widget is on');
    const google = data.sources.find((s) => s.platform === 'google')!;
    expect(google).toMatchObject({ name: 'Google', url: 'https://g.page/r/crumb-and-co/review' });
    expect(google.count).toBeGreaterThanOrEqual(2);
    const everything = JSON.stringify(data) + (await html(`/widget/v1/${id}.html`)).text;
    expect(everything).not.toMatch(/Gwen|Gus/);
    expect(data.reviews.every((r) => r.author !== 'Gwen G.')).toBe(true);
  });

  it('answers the data with its cache headers, an ETag, 304 for a current copy, gzip and CORS for any site', async () => {
    const first = await visitorData(api, id, { origin: 'https://shop.example' });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.headers.get('access-control-allow-credentials')).toBeNull();
    expect(first.headers.get('ratelimit-limit')).toBeNull();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+(-gz)?"$/);
    const again = await visitorData(api, id, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=300');
    // A change makes a new ETag: the old copy is no longer current.
    await storedReviews(api, businessId, [{ rating: 3, consent: true }]);
    const changed = await visitorData(api, id, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('answers views from memory: a hundred views, no build, no look-up', async () => {
    await visitorData(api, id);
    const before = api.ctx.widgets.stats();
    expect(before.builds).toBeGreaterThan(0);
    for (let i = 0; i < 100; i++) expect((await visitorData(api, id)).status).toBe(200);
    const after = api.ctx.widgets.stats();
    expect(after.builds).toBe(before.builds);
    expect(after.lookups).toBe(before.lookups);
  });

  it('answers the same, headers and all, whether the widget is built for the view or read from memory', async () => {
    const headersOf = (response: Response) =>
      Object.fromEntries([...response.headers].filter(([name]) => !['date', 'x-request-id'].includes(name)));
    for (const path of [`/widget/v1/${id}.json`, `/widget/v1/${id}.html`, `/reviews/${id}`]) {
      await api.ctx.widgets.changed({ businessId });
      const built = api.ctx.widgets.stats().builds;
      const first = await api.fetch(path, { headers: { 'x-request-id': 'view-1' } });
      const again = await api.fetch(path);
      expect(api.ctx.widgets.stats().builds).toBe(built + 1);
      expect(headersOf(again)).toEqual(headersOf(first));
      expect(await again.text()).toBe(await first.text());
      expect(first.headers.get('x-request-id')).toBe('view-1');
      expect(again.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(again.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('serves the script and its stylesheet to any site, cacheable and gzipped', async () => {
    const script = await api.fetch('/widget/v1.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-encoding')).toBe('gzip');
    expect(script.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(script.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await script.text()).toContain('Review widget:');
    const style = await api.fetch('/widget/v1.css');
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(
      (await api.fetch('/widget/v1.js', { headers: { 'if-none-match': script.headers.get('etag')! } }))
        .status,
    ).toBe(304);
    expect((await api.fetch('/widget/v1.js', { method: 'POST' })).status).toBe(405);
  });

  it('lets any site frame the HTML rendition, which runs no script', async () => {
    const embed = await api.fetch(`/widget/v1/${id}.html`);
    expect(embed.headers.get('x-frame-options')).toBeNull();
    const csp = embed.headers.get('content-security-policy')!;
    expect(csp).toContain('frame-ancestors *');
    expect(csp).not.toMatch(/script-src|unsafe/);
    expect(await embed.text()).not.toMatch(/<script|style="|AggregateRating|itemprop|application\/ld\+json/);
    // The public page is not framed.
    expect((await api.fetch(`/reviews/${id}`)).headers.get('content-security-policy')).toContain(
      "frame-ancestors 'none'",
    );
  });

  it('turned off: the data says so, the HTML is empty, the public page says reviews are not shown', async () => {
    const off = await ownerWrite(api, key, 'PUT', '/api/v1/widget', { enabled: false });
    expect(off.body.data.enabled).toBe(false);
    expect((await visitorData(api, id)).data).toEqual({ enabled: false });
    const embed = await (await api.fetch(`/widget/v1/${id}.html`)).text();
    expect(embed.slice(embed.indexOf('<body'))).not.toMatch(/<section|Crumb|out of 5/);
    expect((await html(`/reviews/${id}`)).text).toContain(
      'Crumb & Co is not showing its reviews here at the moment.',
    );
    expect((await ownerWrite(api, key, 'PUT', '/api/v1/widget', { enabled: true })).body.data.enabled).toBe(
      true,
    );
    expect((await visitorData(api, id)).data?.enabled).toBe(true);
  });

  it('answers an id nobody issued with 404 from memory, for the script to explain', async () => {
    const made = `wgt_${'A'.repeat(22)}`;
    const missing = await visitorData(api, made);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('widget_not_found');
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    expect((await html(`/reviews/${made}`)).status).toBe(404);
    expect((await html('/widget/v1/not-an-id.html')).status).toBe(404);
  });
});

describe('the owner’s snippet', () => {
  // One service is enough: the snippet is words, not storage.
  describeEachEngine({ publicOrigin: 'https://reviews.example.com' }, (api, engine) => {
    it(`carries PUBLIC_ORIGIN and the widget's public id, never a key (${engine})`, async () => {
      await api.business('corner', 'Corner "Deli" <Cafe>');
      const key = await api.key('corner');
      const owner = await ownerWidget(api, key);
      expect(owner.snippet).toBe(
        [
          `<a href="https://reviews.example.com/reviews/${owner.id}" data-review-desk-fallback>Reviews of Corner &#34;Deli&#34; &#60;Cafe&#62;</a>`,
          `<script src="https://reviews.example.com/widget/v1.js" data-business="${owner.id}" async></script>`,
        ].join('\n'),
      );
      expect(owner.snippet).not.toContain('rd_live_');
      expect((await ownerWidget(api, key)).id).toBe(owner.id);
    });
  });
});
