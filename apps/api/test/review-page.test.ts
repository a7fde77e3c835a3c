import { beforeAll, describe, expect, it } from 'vitest';
import {
  describeEachEngine,
  expectFailure,
  getJson,
  queryOne,
  send,
  sendOk,
  uniquePhone,
} from './helpers.ts';

// The customer's side over real HTTP: open → click recorded → submit → review listed →
// analytics counts it; hand-off; one review per link; CSRF; opt-out; escaping.

describeEachEngine({}, (api) => {
  let key: string;

  beforeAll(async () => {
    await api.business('deli', 'Deli & Sons', 'https://reviews.example.com/deli');
    await api.business('plain', 'Plain Shop', null);
    key = await api.key('deli');
  });

  type Page = {
    status: number;
    html: string;
    headers: Headers;
    cookie: string | undefined;
    formToken: string | undefined;
  };

  async function open(pathname: string, cookie?: string): Promise<Page> {
    const response = await api.fetch(pathname, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
    const html = await response.text();
    const setCookie = response.headers.get('set-cookie');
    return {
      status: response.status,
      html,
      headers: response.headers,
      cookie: setCookie ? setCookie.split(';')[0] : cookie,
      formToken: html.match(/name="form_token" value="([^"]+)"/)?.[1],
    };
  }

  async function post(
    pathname: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    const response = await api.fetch(pathname, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: api.ctx.site.publicOrigin,
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  async function analytics(k = key) {
    return (await getJson(api, '/api/v1/analytics?days=1', k)).body.data;
  }

  describe('the customer journey', () => {
    it('open → click recorded → submit → review listed → analytics counts it; resubmits change nothing', async () => {
      const phone = uniquePhone();
      const sent = await sendOk(api, key, {
        customerName: '<script>alert(1)</script> Kim',
        customerPhone: phone,
      });
      const path = new URL(sent.body.data.reviewLink).pathname;
      const before = await analytics();

      // HEAD (a link preview) does not count as a click.
      const head = await api.fetch(path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect((await analytics()).requests.clicked).toBe(before.requests.clicked);

      const page = await open(path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('script-src');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.html).not.toMatch(/<script/i);
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Kim');
      expect(page.html).toContain('Deli &amp; Sons');
      expect(page.html).toMatch(/<html lang="en">/);
      expect(page.html).toContain('name="viewport"');
      for (let n = 1; n <= 5; n++) expect(page.html).toContain(`<label for="rating-${n}">`);
      expect(page.cookie).toMatch(/^rd_rf=/);
      const setCookie = page.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/HttpOnly/);
      expect(setCookie).toMatch(/SameSite=Strict/i);
      expect(setCookie).toMatch(/Path=\/r\//);
      expect(page.formToken).toBeTruthy();
      // No review gating: the public review site is offered before any rating is given.
      expect(page.html).toContain(`href="${path}/go"`);
      expect((await analytics()).requests.clicked).toBe(before.requests.clicked + 1);

      // A second open is the same click.
      await open(path, page.cookie);
      expect((await analytics()).requests.clicked).toBe(before.requests.clicked + 1);

      const submitted = await post(
        path,
        { form_token: page.formToken!, rating: '2', comment: '  <b>Cold</b> coffee\r\nand slow  ' },
        { cookie: page.cookie! },
      );
      expect(submitted.status).toBe(303);
      expect(submitted.headers.get('location')).toBe(path);

      const reviews = (await getJson(api, '/api/v1/reviews?limit=100', key)).body.data;
      const mine = reviews.reviews.filter((r: { author_name: string }) => r.author_name?.endsWith(' Kim'));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        rating: 2,
        response_status: 'pending',
        platform: 'direct',
        text: '<b>Cold</b> coffee\nand slow',
        author_name: '<script>alert(1)</script> Kim',
      });

      const after = await analytics();
      expect(after.requests.feedback).toBe(before.requests.feedback + 1);
      expect(after.requests.completed).toBe(before.requests.completed + 1);
      expect(after.reviews.total).toBe(before.reviews.total + 1);
      expect(after.reviews.byRating['2']).toBe(before.reviews.byRating['2'] + 1);

      // The thanks page, with the public review site offered whatever the rating (2★ here).
      const thanks = await open(path, page.cookie);
      expect(thanks.html).toContain('Thank you');
      expect(thanks.html).toContain(`href="${path}/go"`);

      // Submitting again (double click, back button) stores nothing new.
      const again = await post(path, { form_token: page.formToken!, rating: '5' }, { cookie: page.cookie! });
      expect(again.status).toBe(303);
      const total = (await getJson(api, '/api/v1/reviews', key)).body.data.total;
      expect(total).toBe(reviews.total);
      expect((await analytics()).requests.feedback).toBe(after.requests.feedback);

      // The hand-off: recorded once, then a redirect to the public review site without a Referer.
      const go = await api.fetch(`${path}/go`, { redirect: 'manual' });
      expect(go.status).toBe(303);
      expect(go.headers.get('location')).toBe('https://reviews.example.com/deli');
      expect(go.headers.get('referrer-policy')).toBe('no-referrer');
      await api.fetch(`${path}/go`, { redirect: 'manual' });
      const final = await analytics();
      expect(final.requests.handoffs).toBe(after.requests.handoffs + 1);
      expect(final.requests.completed).toBe(after.requests.completed); // already completed by feedback
    });

    it('a hand-off alone completes the request', async () => {
      const sent = await send(api, key, { channel: 'link' });
      const before = await analytics();
      const go = await api.fetch(`${new URL(sent.body.data.reviewLink).pathname}/go`, { redirect: 'manual' });
      expect(go.status).toBe(303);
      const after = await analytics();
      expect(after.requests.handoffs - before.requests.handoffs).toBe(1);
      expect(after.requests.completed - before.requests.completed).toBe(1);
      expect(after.requests.clicked - before.requests.clicked).toBe(1);
      expect(after.requests.feedback).toBe(before.requests.feedback);
    });
  });

  describe('form protection and validation', () => {
    it('refuses a post without the cookie, with a wrong token, or from another origin; stores nothing', async () => {
      const sent = await send(api, key, { channel: 'link' });
      const path = new URL(sent.body.data.reviewLink).pathname;
      const page = await open(path);
      const before = (await getJson(api, '/api/v1/reviews', key)).body.data.total;

      expect((await post(path, { form_token: page.formToken!, rating: '5' })).status).toBe(403);
      expect((await post(path, { form_token: 'forged', rating: '5' }, { cookie: page.cookie! })).status).toBe(
        403,
      );
      const foreign = await post(
        path,
        { form_token: page.formToken!, rating: '5' },
        { cookie: page.cookie!, origin: 'https://evil.example' },
      );
      expect(foreign.status).toBe(403);
      expect(foreign.html).toContain('Nothing was saved');
      // A token made for another link does not fit this one.
      const otherSent = await send(api, key, { channel: 'link' });
      const otherPage = await open(new URL(otherSent.body.data.reviewLink).pathname, page.cookie);
      expect(
        (await post(path, { form_token: otherPage.formToken!, rating: '5' }, { cookie: page.cookie! }))
          .status,
      ).toBe(403);
      expect((await getJson(api, '/api/v1/reviews', key)).body.data.total).toBe(before);
    });

    it('a missing or invalid rating re-shows the form with the error and keeps the comment', async () => {
      const sent = await send(api, key, { channel: 'link' });
      const path = new URL(sent.body.data.reviewLink).pathname;
      const page = await open(path);
      for (const rating of [undefined, '0', '6', 'five']) {
        const fields: Record<string, string> = { form_token: page.formToken!, comment: 'Kept <text>' };
        if (rating !== undefined) fields.rating = rating;
        const result = await post(path, fields, { cookie: page.cookie! });
        expect(result.status).toBe(400);
        expect(result.html).toContain('role="alert"');
        expect(result.html).toContain('Choose a rating from 1 to 5 stars.');
        expect(result.html).toContain('Kept &lt;text&gt;');
      }
    });

    it('unknown links and links whose every delivery failed show a 404 page', async () => {
      expect((await open(`/r/${'x'.repeat(43)}`)).status).toBe(404);
      expect((await open('/r/short')).status).toBe(404);
      expect((await api.fetch(`/r/${'x'.repeat(43)}/go`, { redirect: 'manual' })).status).toBe(404);
      const failed = await send(api, key, { customerPhone: '+14155550000' });
      expect(failed.status).toBe(502);
      const token = (await queryOne<{ token: string }>(
        api.ctx.store,
        "SELECT token FROM requests WHERE status = 'failed' ORDER BY id DESC LIMIT 1",
      ))!;
      expect((await open(`/r/${token.token}`)).status).toBe(404);
    });

    it('a business without a public review site offers no hand-off', async () => {
      const plainKey = await api.key('plain');
      const sent = await send(api, plainKey, { channel: 'link' });
      const path = new URL(sent.body.data.reviewLink).pathname;
      const page = await open(path);
      expect(page.html).not.toContain('/go"');
      expect((await api.fetch(`${path}/go`, { redirect: 'manual' })).status).toBe(404);
    });
  });

  describe('opt-out', () => {
    it('“don’t contact me again” stops every later request to that contact', async () => {
      const phone = uniquePhone();
      const sent = await send(api, key, { customerPhone: phone });
      const path = new URL(sent.body.data.reviewLink).pathname;
      const page = await open(path);
      expect(page.html).toContain(`action="${path}/opt-out"`);

      expect((await post(`${path}/opt-out`, { form_token: 'forged' }, { cookie: page.cookie! })).status).toBe(
        403,
      );
      const result = await post(`${path}/opt-out`, { form_token: page.formToken! }, { cookie: page.cookie! });
      expect(result.status).toBe(200);
      expect(result.html).toContain('will not send you review requests');

      api.clock.now += 365 * 86_400_000; // far past any frequency cap
      try {
        expectFailure(await send(api, key, { customerPhone: phone }), 'opted_out');
      } finally {
        api.clock.now -= 365 * 86_400_000;
      }
      // The customer can still leave feedback on the link they have.
      const reopened = await open(path, page.cookie);
      expect(reopened.html).toContain('You will not receive more review requests');
      expect(reopened.html).toContain('name="rating"');
    });
  });
});
