import { randomBytes } from 'node:crypto';
import { DAY_MS } from '@review-desk/shared';
import express, { type Request, type Response, Router } from 'express';
import type { AppContext } from '../context.ts';
import { SITE_CSS } from '../http/html.ts';
import { methodNotAllowed } from '../http/index.ts';
import { expiredPage, formPage, notFoundPage, optedOutPage, thanksPage } from './pages.ts';
import {
  checkFormToken,
  feedbackFormSchema,
  findLink,
  formSecret,
  formToken,
  optOut,
  recordHandoff,
  recordOpen,
  setWebsiteConsent,
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
      websiteConsent: body.website_consent,
    });
    if (!parsed.success) {
      if (existing.review) return thanksPage(res, existing, csrf);
      const message = parsed.error.issues[0]?.message ?? 'Check the form.';
      return formPage(res, 400, existing, csrf, {
        error: message,
        comment: typeof body.comment === 'string' ? body.comment : '',
        websiteConsent: body.website_consent === 'yes',
      });
    }
    const outcome = await submitFeedback(ctx.store, token, parsed.data, ctx.now());
    if (!outcome) return notFoundPage(res);
    if (outcome.created) await ctx.widgets.changed({ businessId: outcome.link.business.id });
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

  // The thanks page's answer to "may the business show it on its website", changed either way.
  router.post('/r/:token/website', form, async (req, res) => {
    pageHeaders(res);
    const token = req.params.token;
    if (!(await findLink(ctx.store, token))) return notFoundPage(res);
    if (!(await formAllowed(req, token))) return expiredPage(res, token);
    const answer = (req.body as Record<string, unknown> | undefined)?.website_consent;
    const link = await setWebsiteConsent(ctx.store, token, answer === 'yes', ctx.now());
    if (!link) return notFoundPage(res);
    await ctx.widgets.changed({ businessId: link.business.id });
    res.redirect(303, `/r/${encodeURIComponent(token)}`);
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
  router.all('/r/:token/website', methodNotAllowed(['POST']));
  return router;
}
