import { randomBytes } from 'node:crypto';
import { DAY_MS, REVIEW_TEXT_MAX } from '@review-desk/shared';
import express, { type Request, type Response, Router } from 'express';
import type { AppContext } from '../context.ts';
import { type Html, html, SITE_CSS, sendPage } from '../http/html.ts';
import { methodNotAllowed } from '../http/index.ts';
import {
  checkFormToken,
  type FeedbackForm,
  feedbackFormSchema,
  findLink,
  formSecret,
  formToken,
  type LinkState,
  optOut,
  recordHandoff,
  recordOpen,
  submitFeedback,
} from './visits.ts';

// The customer page behind every reviewLink: PUBLIC_ORIGIN/r/<token>. Small, mobile-first,
// accessible HTML that works without JavaScript.
//
// No review gating: every customer, whatever rating they give (or none), is offered the link to
// the business's public review site. Asking only happy customers for public reviews is against
// Google's and Yelp's policies (and the FTC's rule on fake reviews), and it makes the public
// rating a lie; so the offer is the same on every page, before and after the rating.

const NONCE_COOKIE = 'rd_rf';
const NONCE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

const RATING_WORDS = ['Very poor', 'Poor', 'Okay', 'Good', 'Excellent'] as const;

function readNonce(req: Request): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    const value = rest.join('=');
    if (name === NONCE_COOKIE && NONCE_PATTERN.test(value)) return value;
  }
  return undefined;
}

export function reviewPageRoutes(ctx: AppContext): Router {
  const router = Router();
  // Read once from the database (made by the first process that needed it); retried after a failure.
  let secretRead: Promise<string> | undefined;
  const secretOf = () => {
    secretRead ??= formSecret(ctx.store).catch((error) => {
      secretRead = undefined;
      throw error;
    });
    return secretRead;
  };
  const secure = () => ctx.site.publicOrigin.startsWith('https://');
  const acceptedOrigins = () => new Set([ctx.site.publicOrigin, ...ctx.config.allowedOrigins]);

  /** The nonce cookie the form token is bound to (set once per browser). */
  function nonceFor(req: Request, res: Response): string {
    const existing = readNonce(req);
    if (existing) return existing;
    const nonce = randomBytes(16).toString('base64url');
    res.cookie(NONCE_COOKIE, nonce, {
      httpOnly: true,
      sameSite: 'strict',
      secure: secure(),
      path: '/r/',
      maxAge: 7 * DAY_MS,
    });
    return nonce;
  }

  /** CSRF check of the page's forms: a same-site Origin (when the browser sends one) and the form token. */
  async function formAllowed(req: Request, token: string): Promise<boolean> {
    const origin = req.get('origin');
    if (origin !== undefined && origin !== 'null' && !acceptedOrigins().has(origin)) return false;
    return checkFormToken(
      await secretOf(),
      token,
      readNonce(req),
      (req.body as Record<string, unknown>)?.form_token,
    );
  }

  function pageHeaders(res: Response) {
    // Same-origin Referer keeps the Origin header on the page's own form posts (no-referrer would
    // send `Origin: null`) while never passing the link token to another site.
    res.set('referrer-policy', 'same-origin');
  }

  // Room for the longest comment in any script (5,000 characters, percent-encoded UTF-8); the
  // schema then enforces the length itself.
  const form = express.urlencoded({ extended: false, limit: '100kb', parameterLimit: 20 });

  router.get('/assets/site.css', (_req, res) => {
    res.set('cache-control', 'public, max-age=3600').type('css').send(SITE_CSS);
  });

  router.get('/r/:token', async (req, res) => {
    pageHeaders(res);
    // HEAD (link previews, scanners) shows the page without counting a click.
    const link =
      req.method === 'HEAD'
        ? await findLink(ctx.store, req.params.token)
        : await recordOpen(ctx.store, req.params.token, ctx.now());
    if (!link) return notFoundPage(res);
    const nonce = nonceFor(req, res);
    const csrf = formToken(await secretOf(), req.params.token, nonce);
    if (link.review) return thanksPage(res, link, csrf);
    return formPage(res, 200, link, csrf, {});
  });

  router.post('/r/:token', form, async (req, res) => {
    pageHeaders(res);
    const token = req.params.token;
    const existing = await findLink(ctx.store, token);
    if (!existing) return notFoundPage(res);
    if (!(await formAllowed(req, token))) return expiredPage(res, token);
    const csrf = formToken(await secretOf(), token, readNonce(req)!);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const parsed = feedbackFormSchema.safeParse({
      rating: typeof body.rating === 'string' ? body.rating : undefined,
      comment: typeof body.comment === 'string' ? body.comment : undefined,
    });
    if (!parsed.success) {
      if (existing.review) return thanksPage(res, existing, csrf);
      const message = parsed.error.issues[0]?.message ?? 'Check the form.';
      return formPage(res, 400, existing, csrf, {
        error: message,
        comment: typeof body.comment === 'string' ? body.comment : '',
      });
    }
    const outcome = await submitFeedback(ctx.store, token, parsed.data, ctx.now());
    if (!outcome) return notFoundPage(res);
    // Post/Redirect/Get: a reload shows the thanks page instead of re-posting.
    res.redirect(303, `/r/${encodeURIComponent(token)}`);
  });

  router.get('/r/:token/go', async (req, res) => {
    if (req.method === 'HEAD') return res.status(204).end();
    const url = await recordHandoff(ctx.store, req.params.token, ctx.now());
    if (!url) return notFoundPage(res);
    // The hand-off is recorded; the redirect itself carries no Referer (and so no token).
    res.set('referrer-policy', 'no-referrer').redirect(303, url);
  });

  router.post('/r/:token/opt-out', form, async (req, res) => {
    pageHeaders(res);
    const token = req.params.token;
    if (!(await findLink(ctx.store, token))) return notFoundPage(res);
    if (!(await formAllowed(req, token))) return expiredPage(res, token);
    const link = await optOut(ctx.store, token, ctx.now());
    if (!link) return notFoundPage(res);
    return optedOutPage(res, link);
  });

  router.all('/assets/site.css', methodNotAllowed(['GET']));
  router.all('/r/:token', methodNotAllowed(['GET', 'POST']));
  router.all('/r/:token/go', methodNotAllowed(['GET']));
  router.all('/r/:token/opt-out', methodNotAllowed(['POST']));
  return router;
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

function formPage(
  res: Response,
  status: number,
  link: LinkState,
  csrf: string,
  state: { error?: string; comment?: string; rating?: FeedbackForm['rating'] },
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
    <p><button type="submit">Send feedback</button></p>
  </form>
  ${publicReviewOffer(link)}
</div>
${optOutForm(link, csrf)}
</main>`,
  });
}

function thanksPage(res: Response, link: LinkState, csrf: string): void {
  const rating = link.review?.rating ?? 0;
  sendPage(res, 200, {
    title: `Thank you — ${link.business.name}`,
    body: html`<main>
<div class="card stack">
  <h1>Thank you!</h1>
  <p>Your feedback (${rating} ${rating === 1 ? 'star' : 'stars'}) has reached ${link.business.name}.</p>
  ${publicReviewOffer(link)}
</div>
${optOutForm(link, csrf)}
</main>`,
  });
}

function optedOutPage(res: Response, link: LinkState): void {
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

function notFoundPage(res: Response): void {
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

function expiredPage(res: Response, token: string): void {
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
