import { AppError } from '@review-desk/server/errors';
import helmet from 'helmet';
import type { Gate } from './gate.ts';

/**
 * Request targets the BFF refuses before any routing (400, never forwarded): absolute-form
 * (`GET http://elsewhere/…`), empty segments (`//`), dot segments, backslashes, and encoded
 * dots, slashes, backslashes, percent signs (double encoding) or NULs anywhere in the path. A
 * path that needs none of these is the only kind our routes and the upstream's have, so nothing
 * legitimate is lost, and no decoder downstream can be talked into a different path.
 */
export function unsafeTargetReason(url: string): string | null {
  if (url.charCodeAt(0) !== 0x2f /* / */) return 'the request target must be a path';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path.includes('//')) return 'empty path segments are not accepted';
  if (path.includes('\\')) return 'backslashes are not accepted in paths';
  if (path.includes('%') && /%(2e|2f|5c|25|00)/i.test(path)) {
    return 'encoded dots, slashes, backslashes or percent signs are not accepted in paths';
  }
  if (/(^|\/)\.\.?(\/|$)/.test(path)) return 'dot segments are not accepted in paths';
  return null;
}

/** Gate: refuses the request targets above with 400, on every path, before any routing. */
export const safeTarget: Gate = (req) => {
  const reason = unsafeTargetReason(req.url ?? '');
  if (reason === null) return null;
  req.ctx.route = 'rejected';
  return new AppError('bad_target', `Bad request target: ${reason}.`);
};

/**
 * Gate (it never refuses): the security headers. Helmet with a strict CSP: scripts and styles only from our own origin (the Vite build emits
 * external files only, and the dashboard injects no <style> and evaluates no code), no inline
 * scripts or styles, no eval, no framing. `upgrade-insecure-requests` is off so the dashboard
 * works over plain HTTP on 127.0.0.1.
 */
export function securityHeaders(): Gate {
  const policy = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
  });
  // With a static policy helmet's headers are the same for every request: let it compute them
  // once, then set that list on each response (a loop instead of a dozen nested middleware).
  const headers: [string, string][] = [];
  const capture = {
    setHeader: (name: string, value: unknown) => headers.push([name.toLowerCase(), String(value)]),
    removeHeader: () => {},
  };
  let computed = false;
  policy({} as never, capture as never, (error?: unknown) => {
    if (error) throw error;
    computed = true;
  });
  if (!computed || headers.length === 0) throw new Error('helmet did not produce its headers synchronously');
  return (req, res) => {
    const list = isDataPath(req.url ?? '') ? DATA_HEADERS : headers;
    for (const [name, value] of list) res.setHeader(name, value);
    return null;
  };
}

/**
 * JSON answers (the proxy, /auth, /bff, health) are never rendered as documents, so most of the
 * document policy does not apply to them; they get the headers that do: no sniffing, no caching
 * (they carry personal data or depend on the session: `no-store`, and `Vary: Cookie` for any cache
 * that ignores it), no embedding, and a CSP that allows nothing should one be opened as a page.
 * Fewer headers on the hot path is measurably cheaper (docs/bff.md, "Performance").
 */
const DATA_HEADERS: readonly [string, string][] = [
  ['cache-control', 'no-store'],
  ['vary', 'Cookie'],
  ['x-content-type-options', 'nosniff'],
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['cross-origin-resource-policy', 'same-origin'],
  ['referrer-policy', 'no-referrer'],
];
const DATA_PREFIXES = ['/api/', '/auth/', '/bff/'];
const DATA_PATHS = new Set(['/api', '/healthz', '/readyz', '/metrics']);

function isDataPath(url: string): boolean {
  for (const prefix of DATA_PREFIXES) if (url.startsWith(prefix)) return true;
  const q = url.indexOf('?');
  return DATA_PATHS.has(q === -1 ? url : url.slice(0, q));
}
