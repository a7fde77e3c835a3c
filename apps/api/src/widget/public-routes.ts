import { AppError } from '@review-desk/server/errors';
import { WIDGET_PATHS } from '@review-desk/shared';
import { type Response, Router } from 'express';
import type { AppContext } from '../context.ts';
import { html, sendPage } from '../http/html.ts';
import { methodNotAllowed } from '../http/index.ts';
import type { WidgetEntry } from './service.ts';
import { FILE, PUBLIC, respond } from './views.ts';

// What visitors of a business's website load (docs/widget.md), when memory alone cannot answer
// (fast-path.ts answers the rest): a widget to build first, an id nobody issued, a preflight,
// another method. No key, so no key's rate limit.

export function widgetPublicRoutes(ctx: AppContext): Router {
  const router = Router();
  const { widgets } = ctx;

  async function entryOf(id: string): Promise<WidgetEntry | undefined> {
    const found = widgets.lookup(id);
    return found instanceof Promise ? await found : found;
  }

  router.get(WIDGET_PATHS.script, (req, res) => respond(req, res, 'script', widgets.assets.script));
  router.get(WIDGET_PATHS.style, (req, res) => respond(req, res, 'style', widgets.assets.style));

  router.get('/widget/v1/:file', async (req, res) => {
    const [, id, kind] = FILE.exec(req.params.file) ?? [];
    const entry = id === undefined ? undefined : await entryOf(id);
    if (kind === 'html') {
      if (!entry) return missingPage(res);
      return respond(req, res, 'embed', entry.embed);
    }
    // The script reads this 404 too, and tells the site's owner what is wrong.
    if (!entry) throw new AppError('widget_not_found', undefined, { headers: PUBLIC });
    respond(req, res, 'data', entry.json);
  });

  router.get('/reviews/:id', async (req, res) => {
    const entry = await entryOf(req.params.id);
    if (!entry) return missingPage(res);
    respond(req, res, 'page', entry.page);
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
