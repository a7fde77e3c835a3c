import type { IncomingMessage, ServerResponse } from 'node:http';
import { WIDGET_MAX_AGE_SECONDS, WIDGET_PATHS } from '@review-desk/shared';
import { PAGE_CSP } from '../http/html.ts';
import { answer, type Representation } from './representation.ts';
import type { Widgets } from './service.ts';

// What each public widget address answers, in one place for both ways in: the fast path (an
// answer in memory, before Express: fast-path.ts) and the routes (everything else:
// public-routes.ts). The data is public, so any origin may read it (CORS `*`, never credentials);
// the script and the data may be embedded by any site (CORP cross-origin).

export type ViewKind = 'script' | 'style' | 'data' | 'embed' | 'page';

export const PUBLIC = {
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
} as const;
const FOR_A_WHILE = `public, max-age=${WIDGET_MAX_AGE_SECONDS}`;

const HEADERS: Record<ViewKind, Readonly<Record<string, string>>> = {
  script: { ...PUBLIC, 'cache-control': 'public, max-age=3600' },
  style: { ...PUBLIC, 'cache-control': 'public, max-age=3600' },
  data: { ...PUBLIC, 'cache-control': FOR_A_WHILE },
  // Framed by any site; runs no script, sends no form, loads only this service's stylesheet.
  embed: {
    'cache-control': FOR_A_WHILE,
    'content-security-policy':
      "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors *",
  },
  page: { 'cache-control': FOR_A_WHILE, 'content-security-policy': PAGE_CSP },
};

/** The names the metrics count each address under (the routes' own paths). */
export const ROUTE_NAMES: Record<ViewKind, string> = {
  script: WIDGET_PATHS.script,
  style: WIDGET_PATHS.style,
  data: '/widget/v1/:file',
  embed: '/widget/v1/:file',
  page: '/reviews/:id',
};

/** `/widget/v1/<id>.json` or `.html`: the id and which. */
export const FILE = /^([A-Za-z0-9_-]{1,64})\.(json|html)$/;

export function respond(
  req: IncomingMessage,
  res: ServerResponse,
  kind: ViewKind,
  body: Representation,
): void {
  if (kind === 'embed') res.removeHeader('x-frame-options');
  answer(req, res, body, HEADERS[kind]);
}

/** The view of a path that memory answers at once, or undefined. */
export function viewInMemory(
  widgets: Widgets,
  path: string,
): { kind: ViewKind; body: Representation } | undefined {
  if (path === WIDGET_PATHS.script) return { kind: 'script', body: widgets.assets.script };
  if (path === WIDGET_PATHS.style) return { kind: 'style', body: widgets.assets.style };
  if (path.startsWith('/widget/v1/')) {
    const [, id, kind] = FILE.exec(path.slice('/widget/v1/'.length)) ?? [];
    const entry = id === undefined ? undefined : widgets.peek(id);
    if (!entry) return undefined;
    return kind === 'json' ? { kind: 'data', body: entry.json } : { kind: 'embed', body: entry.embed };
  }
  if (path.startsWith('/reviews/')) {
    const entry = widgets.peek(path.slice('/reviews/'.length));
    return entry && { kind: 'page', body: entry.page };
  }
  return undefined;
}
