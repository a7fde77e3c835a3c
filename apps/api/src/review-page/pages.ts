import { publicAuthorName, REVIEW_TEXT_MAX } from '@review-desk/shared';
import type { Response } from 'express';
import { type Html, html, sendPage } from '../http/html.ts';
import type { FeedbackForm, LinkState } from './visits.ts';

// The customer page's pages (routes.ts answers with them): the form, the thanks page, the
// opt-out's answer and the refusals. Server-rendered, no script; every value escaped.

const RATING_WORDS = ['Very poor', 'Poor', 'Okay', 'Good', 'Excellent'] as const;

/** How the review would be signed on the business's website, in the customer's words. */
function signedAs(link: LinkState): string {
  const name = publicAuthorName(link.request.customer_name);
  return name ? `, signed “${name}”` : ', without your name';
}

/**
 * Asked after the review is written, before it is sent: off unless ticked (docs/widget.md,
 * "Consent"). The answer is stored with the review; the thanks page lets the customer change it.
 */
function consentQuestion(link: LinkState, ticked: boolean): Html {
  return html`<div class="consent">
      <label class="check" for="website-consent">
        <input type="checkbox" id="website-consent" name="website_consent" value="yes" aria-describedby="website-consent-help"${ticked ? ' checked' : ''}>
        <span>${link.business.name} may show my review on its website${signedAs(link)}</span>
      </label>
      <p class="muted" id="website-consent-help">Optional. Your rating, your comment and the date would be shown. You can change your answer afterwards on this page.</p>
    </div>`;
}

/** The thanks page's consent: what the customer said, and a button to change it. */
function consentAnswer(link: LinkState, csrf: string): Html | null {
  if (!link.review) return null;
  const yes = link.review.website_consent === 1;
  return html`<section aria-labelledby="website-heading">
  <h2 id="website-heading">On ${link.business.name}’s website</h2>
  <p>${yes ? html`You agreed that ${link.business.name} may show your review on its website${signedAs(link)}.` : html`Your review is not shown on ${link.business.name}’s website.`}</p>
  <form method="post" action="/r/${encodeURIComponent(link.request.token)}/website">
    <input type="hidden" name="form_token" value="${csrf}">
    <input type="hidden" name="website_consent" value="${yes ? 'no' : 'yes'}">
    <button type="submit" class="button secondary">${yes ? 'Stop showing it on the website' : 'Let them show it on their website'}</button>
  </form>
</section>`;
}

function publicReviewOffer(link: LinkState): Html | null {
  if (!link.business.review_url) return null;
  const token = link.request.token;
  return html`<section aria-labelledby="public-heading">
  <h2 id="public-heading">Want to post a public review too?</h2>
  <p>You can also review ${link.business.name} where other customers will see it. It opens their public review page.</p>
  <a class="button secondary" href="/r/${encodeURIComponent(token)}/go">Write a public review</a>
</section>`;
}

function optOutForm(link: LinkState, csrf: string): Html {
  if (link.request.opted_out_at !== null) {
    return html`<footer><p class="muted">You will not receive more review requests from ${link.business.name}.</p></footer>`;
  }
  return html`<footer>
  <form method="post" action="/r/${encodeURIComponent(link.request.token)}/opt-out">
    <input type="hidden" name="form_token" value="${csrf}">
    <button type="submit" class="link">Don’t contact me again about reviews from ${link.business.name}</button>
  </form>
</footer>`;
}

export function formPage(
  res: Response,
  status: number,
  link: LinkState,
  csrf: string,
  state: { error?: string; comment?: string; rating?: FeedbackForm['rating']; websiteConsent?: boolean },
): void {
  const token = encodeURIComponent(link.request.token);
  const name = link.request.customer_name;
  const ratings = [5, 4, 3, 2, 1].map(
    (n) => html`<label for="rating-${n}">
        <input type="radio" id="rating-${n}" name="rating" value="${n}" required${state.rating === n ? ' checked' : ''}>
        <span class="glyph" aria-hidden="true">${'★'.repeat(n)}${'☆'.repeat(5 - n)}</span>
        <span>${n} ${n === 1 ? 'star' : 'stars'} — ${RATING_WORDS[n - 1]}</span>
      </label>`,
  );
  sendPage(res, status, {
    title: `${status === 400 ? 'Error: ' : ''}Your feedback for ${link.business.name}`,
    body: html`<main>
<div class="card stack">
  <h1>How was your visit to ${link.business.name}?</h1>
  <p>${name ? html`Hi ${name}, we` : 'We'} would love to hear how it went. Your answer goes straight to the team.</p>
  ${state.error ? html`<p class="error" role="alert" id="form-error">${state.error}</p>` : null}
  <form method="post" action="/r/${token}">
    <input type="hidden" name="form_token" value="${csrf}">
    <fieldset class="stars"${state.error ? ' aria-describedby="form-error"' : ''}>
      <legend>Your rating (required)</legend>
      ${ratings}
    </fieldset>
    <label class="block" for="comment">Anything you would like to tell us? (optional)</label>
    <textarea id="comment" name="comment" maxlength="${REVIEW_TEXT_MAX}" rows="5">${state.comment ?? ''}</textarea>
    ${consentQuestion(link, state.websiteConsent === true)}
    <p><button type="submit">Send feedback</button></p>
  </form>
  ${publicReviewOffer(link)}
</div>
${optOutForm(link, csrf)}
</main>`,
  });
}

export function thanksPage(res: Response, link: LinkState, csrf: string): void {
  const rating = link.review?.rating ?? 0;
  sendPage(res, 200, {
    title: `Thank you — ${link.business.name}`,
    body: html`<main>
<div class="card stack">
  <h1>Thank you!</h1>
  <p>Your feedback (${rating} ${rating === 1 ? 'star' : 'stars'}) has reached ${link.business.name}.</p>
  ${consentAnswer(link, csrf)}
  ${publicReviewOffer(link)}
</div>
${optOutForm(link, csrf)}
</main>`,
  });
}

export function optedOutPage(res: Response, link: LinkState): void {
  sendPage(res, 200, {
    title: `Unsubscribed — ${link.business.name}`,
    body: html`<main>
<div class="card stack">
  <h1>You will not hear from us again</h1>
  <p>${link.business.name} will not send you review requests any more.</p>
</div>
</main>`,
  });
}

export function notFoundPage(res: Response): void {
  sendPage(res, 404, {
    title: 'Link not valid',
    body: html`<main>
<div class="card stack">
  <h1>This link is not valid</h1>
  <p>It may have been mistyped or withdrawn. If you were sent this link, please check the message and try again.</p>
</div>
</main>`,
  });
}

export function expiredPage(res: Response, token: string): void {
  sendPage(res, 403, {
    title: 'Please try again',
    body: html`<main>
<div class="card stack">
  <h1>Please try again</h1>
  <p>This form could not be accepted (it may have expired, or cookies may be blocked). Nothing was saved.</p>
  <p><a class="button" href="/r/${encodeURIComponent(token)}">Reload the page</a></p>
</div>
</main>`,
  });
}
