import {
  DAY_MS,
  DIRECT_PLATFORM,
  successEnvelopeSchema,
  widgetDataSchema,
  widgetOwnerSchema,
} from '@review-desk/shared';
import { expect } from 'vitest';
import { type Body, getJson, sendOk, type TestApi, uniquePhone, writeJson } from '../helpers.ts';

// The website widget's tests drive it as its users do: a customer on the customer page, the
// owner through the API's widget calls, a visitor through the public URLs.

/** A customer leaves a review through the real customer page, ticking the consent box or not. */
export async function customerReview(
  api: TestApi,
  key: string,
  review: { name: string | null; rating: number; comment?: string; consent: boolean },
): Promise<{ path: string; cookie: string }> {
  const sent = await sendOk(api, key, {
    ...(review.name === null ? {} : { customerName: review.name }),
    customerPhone: uniquePhone(),
    channel: 'link',
  });
  const path = new URL(sent.body.data.reviewLink).pathname;
  const page = await api.fetch(path);
  const html = await page.text();
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
  const formToken = html.match(/name="form_token" value="([^"]+)"/)?.[1] ?? '';
  const fields: Record<string, string> = {
    form_token: formToken,
    rating: String(review.rating),
    comment: review.comment ?? '',
    ...(review.consent ? { website_consent: 'yes' } : {}),
  };
  const posted = await api.fetch(path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: api.ctx.site.publicOrigin,
      cookie,
    },
    body: new URLSearchParams(fields).toString(),
  });
  expect(posted.status).toBe(303);
  return { path, cookie };
}

let stored = 0;

/** Reviews written straight to the store (many, or dated in the past), consented or not. */
export async function storedReviews(
  api: TestApi,
  businessId: number,
  reviews: { rating: number; daysAgo?: number; consent?: boolean; author?: string; platform?: string }[],
): Promise<number[]> {
  const store = api.ctx.store;
  const ids = await store.transaction(async () => {
    const made: number[] = [];
    for (const [i, r] of reviews.entries()) {
      const at = api.clock.now - (r.daysAgo ?? 0) * DAY_MS - i;
      const row = await store.reviews.insert({
        businessId,
        rating: r.rating,
        status: 'pending',
        authorName: r.author ?? `Person${i} Example`,
        text: `Words of review ${i} rated ${r.rating}`,
        reviewAt: at,
        responseText: null,
        platform: r.platform ?? DIRECT_PLATFORM,
        externalId: r.platform ? `${r.platform}-${process.pid}-${++stored}` : null,
        requestId: null,
        createdAt: at,
      });
      if (r.consent) await store.website.setConsent(row.id, true, at);
      made.push(row.id);
    }
    return made;
  });
  await api.ctx.widgets.changed({ businessId });
  return ids;
}

/** The owner's view of the widget (GET /api/v1/widget), made on first use. */
export async function ownerWidget(api: TestApi, key: string) {
  const result = await getJson(api, '/api/v1/widget', key);
  expect(result.status).toBe(200);
  return successEnvelopeSchema(widgetOwnerSchema).parse(result.body).data;
}

/** A visitor's read of the widget's data. */
export async function visitorData(api: TestApi, id: string, headers: Record<string, string> = {}) {
  const response = await api.fetch(`/widget/v1/${id}.json`, { headers });
  const text = await response.text();
  const body: Body = text === '' ? undefined : JSON.parse(text);
  return {
    status: response.status,
    headers: response.headers,
    body,
    data: response.status === 200 ? successEnvelopeSchema(widgetDataSchema).parse(body).data : undefined,
  };
}

/** The owner's writes: the switch, hiding and showing a review. */
export function ownerWrite(
  api: TestApi,
  key: string,
  method: 'PUT' | 'DELETE',
  pathname: string,
  body?: unknown,
) {
  if (method === 'PUT') return writeJson(api, 'PUT', pathname, key, body);
  return api
    .fetch(pathname, { method, headers: { 'x-api-key': key, origin: api.ctx.site.publicOrigin } })
    .then(async (response) => ({
      status: response.status,
      headers: response.headers,
      body: await response.json(),
    }));
}

/** The visible text of an HTML answer, tags dropped, entities of quotes read back. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
