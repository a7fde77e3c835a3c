import { AppError } from '@review-desk/server/errors';
import { WIDGET_MAX_AGE_SECONDS, WIDGET_PATHS } from '@review-desk/shared';
import { type Response, Router } from 'express';
import type { AppContext } from '../context.ts';
import { html, PAGE_CSP, sendPage } from '../http/html.ts';
import { methodNotAllowed } from '../http/index.ts';
import { answer } from './representation.ts';
import type { WidgetEntry } from './service.ts';

// What visitors of a business's website load (docs/widget.md): the script and its stylesheet,
// the widget's data, its HTML rendition and the public page of reviews. No key, so no key's rate
// limit; every answer comes from memory (service.ts), with an ETag and a 304 when the browser's
// copy is current. The data is public, so any origin may read it (CORS `*`, never credentials).

const PUBLIC = {
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
};
const FOR_A_WHILE = `public, max-age=${WIDGET_MAX_AGE_SECONDS}`;
const HEADERS = {
  asset: { ...PUBLIC, 'cache-control': 'public, max-age=3600' },
  data: { ...PUBLIC, 'cache-control': FOR_A_WHILE },
  // Framed by any site; runs no script, sends no form, loads only this service's stylesheet.
  embed: {
    'cache-control': FOR_A_WHILE,
    'content-security-policy':
      "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *",
  },
  page: { 'cache-control': FOR_A_WHILE, 'content-security-policy': PAGE_CSP },
} as const;

const FILE = /^([A-Za-z0-9_-]{1,64})\.(json|html)$/;

export function widgetPublicRoutes(ctx: AppContext): Router {
  const router = Router();
  const { widgets } = ctx;

  async function entryOf(id: string): Promise<WidgetEntry | undefined> {
    const found = widgets.lookup(id);
    return found instanceof Promise ? await found : found;
  }

  router.get(WIDGET_PATHS.script, (req, res) => answer(req, res, widgets.assets.script, HEADERS.asset));
  router.get(WIDGET_PATHS.style, (req, res) => answer(req, res, widgets.assets.style, HEADERS.asset));

  router.get('/widget/v1/:file', async (req, res) => {
    const [, id, kind] = FILE.exec(req.params.file) ?? [];
    const entry = id === undefined ? undefined : await entryOf(id);
    if (kind === 'html') {
      if (!entry) return missingPage(res);
      res.removeHeader('x-frame-options');
      return answer(req, res, entry.embed, HEADERS.embed);
    }
    // The script reads this 404 too, and tells the site's owner what is wrong.
    if (!entry) throw new AppError('widget_not_found', undefined, { headers: PUBLIC });
    answer(req, res, entry.json, HEADERS.data);
  });

  router.get('/reviews/:id', async (req, res) => {
    const entry = await entryOf(req.params.id);
    if (!entry) return missingPage(res);
    answer(req, res, entry.page, HEADERS.page);
  });

  // Browsers send no preflight for the script's plain GET; a client that asks is answered.
  router.options([WIDGET_PATHS.script, WIDGET_PATHS.style, '/widget/v1/:file'], (_req, res) => {
    res
      .set({ ...PUBLIC, 'access-control-allow-methods': 'GET, HEAD', 'access-control-max-age': '86400' })
      .status(204)
      .end();
  });
  router.all(
    [WIDGET_PATHS.script, WIDGET_PATHS.style, '/widget/v1/:file', '/reviews/:id'],
    methodNotAllowed(['GET', 'HEAD']),
  );
  return router;
}

function missingPage(res: Response): void {
  sendPage(res, 404, {
    title: 'No such page of reviews',
    body: html`<main><div class="card stack"><h1>No such page of reviews</h1><p>The address may have been mistyped, or the business no longer shows its reviews here.</p></div></main>`,
  });
}
