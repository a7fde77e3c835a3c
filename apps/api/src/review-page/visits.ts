import { createHmac, timingSafeEqual } from 'node:crypto';
import { DIRECT_PLATFORM, RATING_MAX, RATING_MIN, REVIEW_TEXT_MAX } from '@review-desk/shared';
import { z } from 'zod';
import type { BusinessRow } from '../accounts/businesses-store.ts';
import { randomToken } from '../ids.ts';
import type { RequestRow } from '../requests/store.ts';
import type { ReviewRow } from '../reviews/store.ts';
import type { Store } from '../store/index.ts';

// The customer's side of a review request: the page behind `reviewLink`. Opening it records a
// click; a rating (with an optional comment) is stored as a direct review and completes the
// request as feedback; following the link to the business's public review site completes it as a
// hand-off. Completion counts include both, and neither proves a public review exists
// (docs/api.md, "Analytics").

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type LinkState = {
  request: RequestRow;
  business: BusinessRow;
  review: ReviewRow | undefined;
};

/** The request behind a link, or undefined when the link is unknown or never reached anyone. */
export async function findLink(store: Store, token: string): Promise<LinkState | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const request = await store.requests.byToken(token);
  // A request whose deliveries all failed was never shown to anyone: its link is not valid.
  if (!request || request.status === 'failed') return undefined;
  const business = await store.businesses.byId(request.business_id);
  if (!business) return undefined;
  return { request, business, review: await store.reviews.byRequest(request.id) };
}

/**
 * Runs a change to a link's request in a transaction that holds the link's lock: a double submit
 * reaching two processes at once is still one review and one count.
 */
function withLink<T>(
  store: Store,
  token: string,
  fn: (link: LinkState) => Promise<T>,
): Promise<T | undefined> {
  return store.transaction(async (tx) => {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    await tx.lock('link', token);
    const link = await findLink(store, token);
    return link ? fn(link) : undefined;
  });
}

export function recordOpen(store: Store, token: string, now: number): Promise<LinkState | undefined> {
  return withLink(store, token, async (link) => {
    await store.requests.markClicked(link.request, now);
    return link;
  });
}

export const feedbackFormSchema = z.object({
  rating: z
    .string({ error: 'Choose a rating from 1 to 5 stars.' })
    .regex(/^[1-5]$/, { error: 'Choose a rating from 1 to 5 stars.' })
    .transform(Number)
    .pipe(z.number().int().min(RATING_MIN).max(RATING_MAX)),
  comment: z
    .string()
    .optional()
    .transform((v) => (v ?? '').replace(/\r\n/g, '\n').trim())
    .pipe(
      z.string().max(REVIEW_TEXT_MAX, { error: `Keep the comment under ${REVIEW_TEXT_MAX} characters.` }),
    ),
  // The checkbox "may show my review on its website": ticked sends `yes`; absent is no.
  websiteConsent: z.unknown().transform((v) => v === 'yes'),
});
export type FeedbackForm = z.output<typeof feedbackFormSchema>;

/**
 * Stores the customer's rating once. A second submission (double click, back button) changes
 * nothing and reports the review already stored.
 */
export function submitFeedback(
  store: Store,
  token: string,
  form: Pick<FeedbackForm, 'rating' | 'comment'> & { websiteConsent?: boolean },
  now: number,
): Promise<{ link: LinkState; created: boolean } | undefined> {
  return withLink(store, token, async (link) => {
    if (link.review) return { link, created: false };
    const review = await store.reviews.insert({
      businessId: link.business.id,
      rating: form.rating,
      status: 'pending',
      authorName: link.request.customer_name,
      text: form.comment === '' ? null : form.comment,
      reviewAt: now,
      responseText: null,
      platform: DIRECT_PLATFORM,
      externalId: null,
      requestId: link.request.id,
      createdAt: now,
    });
    // The answer is recorded either way: a no, and when it was given, is an answer too.
    await store.website.setConsent(review.id, form.websiteConsent === true, now);
    // Submitting implies the page was opened, whatever a link scanner did or did not do.
    await store.requests.markClicked(link.request, now);
    const request = (await store.requests.byId(link.request.id))!;
    await store.requests.markFeedback(request, now);
    // Their events, in this transaction (docs/api.md, "Webhooks").
    await store.events.review('review.created', link.business.id, review, now);
    if (request.completed_at === null)
      await store.events.request('request.completed', link.business.id, request.public_id, now);
    return {
      link: {
        ...link,
        request: (await store.requests.byId(link.request.id))!,
        review: await store.reviews.byId(review.id),
      },
      created: true,
    };
  });
}

/** The customer changes their answer on the thanks page; undefined without a review. */
export function setWebsiteConsent(
  store: Store,
  token: string,
  consent: boolean,
  now: number,
): Promise<LinkState | undefined> {
  return withLink(store, token, async (link) => {
    if (!link.review) return undefined;
    await store.website.setConsent(link.review.id, consent, now);
    return link;
  });
}

/** Records the hand-off and returns where to send the customer, or undefined without a site. */
export function recordHandoff(store: Store, token: string, now: number): Promise<string | undefined> {
  return withLink(store, token, async (link) => {
    if (!link.business.review_url) return undefined;
    await store.requests.markClicked(link.request, now);
    const request = (await store.requests.byId(link.request.id))!;
    await store.requests.markHandoff(request, now);
    if (request.completed_at === null)
      await store.events.request('request.completed', link.business.id, request.public_id, now);
    return link.business.review_url;
  });
}

export function optOut(store: Store, token: string, now: number): Promise<LinkState | undefined> {
  return withLink(store, token, async (link) => {
    const { request } = link;
    await store.requests.optOut(request, now);
    if (request.opted_out_at === null)
      await store.events.optedOut(
        link.business.id,
        {
          phone: request.customer_phone,
          email: request.customer_email,
          source: 'review_page',
          requestId: request.public_id,
        },
        now,
      );
    return link;
  });
}

// CSRF protection of the page's forms: a hidden token that is an HMAC of the link token and a
// random nonce held in a SameSite=Strict cookie. A cross-site form cannot read the page to learn
// the token nor send the cookie, and the secret never leaves the server.

export function formSecret(store: Store): Promise<string> {
  return store.settings.getOrInit('review_form_secret', () => randomToken(32));
}

export function formToken(secret: string, linkToken: string, nonce: string): string {
  return createHmac('sha256', secret).update(`${linkToken}.${nonce}`).digest('base64url');
}

export function checkFormToken(secret: string, linkToken: string, nonce: string | undefined, given: unknown) {
  if (!nonce || typeof given !== 'string') return false;
  const expected = Buffer.from(formToken(secret, linkToken, nonce));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
