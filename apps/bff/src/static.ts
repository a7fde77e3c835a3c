import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import compression from 'compression';
import express, { type Request, type RequestHandler, type Response, Router } from 'express';

// The dashboard (apps/web's Vite build): hashed files under /assets cached for a year as
// immutable, index.html revalidated on every load (so a deploy is picked up at once), client-side
// routes answered with index.html for browser navigations. Compression applies here only: the
// proxied JSON is relayed as is (see docs/bff.md, "Performance"); assets are compressed once.

const RESERVED = ['/api', '/auth', '/bff', '/assets', '/healthz', '/readyz', '/metrics'];

function isReserved(p: string): boolean {
  return RESERVED.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
}

function isNavigation(req: Request): boolean {
  return req.headers['sec-fetch-mode'] === 'navigate' || (req.headers.accept ?? '').includes('text/html');
}

const PLACEHOLDER = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Review Desk</title>
</head>
<body>
<main>
<h1>Review Desk</h1>
<p>The dashboard server is running, but the web app has not been built yet.</p>
<p>Build it with <code>npm run build -w apps/web</code> and reload this page.</p>
<p>Health: <a href="/healthz">/healthz</a> · Readiness: <a href="/readyz">/readyz</a></p>
</main>
</body>
</html>
`;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

const COMPRESSIBLE: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The best encoding the browser accepts: brotli, then gzip; null for neither. */
function acceptedEncodings(header: string | undefined): { br: boolean; gzip: boolean } {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) accepted.add(name!.trim());
  }
  return { br: accepted.has('br'), gzip: accepted.has('gzip') || accepted.has('*') };
}

/**
 * Hashed assets never change, so each is compressed once and kept in memory: a first visit
 * downloads some thirty files, and compressing each on every request (the compression
 * middleware's way) made the single-threaded server the slowest part of the dashboard's first
 * load. gzip -9 is made on first request (or by the warm-up that starts with the server); brotli
 * 11, slower to make, is made in the background, one file at a time, and sent once it exists.
 */
function precompressedAssets(assetsDir: string): RequestHandler {
  const gzipped = new Map<string, Promise<Buffer | null>>();
  const brotli = new Map<string, Buffer>();
  const gzipOf = (name: string): Promise<Buffer | null> => {
    let entry = gzipped.get(name);
    if (!entry) {
      entry = readFile(path.join(assetsDir, name)).then(
        (bytes) => gzipAsync(bytes, { level: 9 }),
        () => null,
      );
      gzipped.set(name, entry);
    }
    return entry;
  };
  const warmUp = async (names: string[]) => {
    for (const name of names) await gzipOf(name);
    for (const name of names) {
      const bytes = await readFile(path.join(assetsDir, name)).catch(() => null);
      if (!bytes) continue;
      brotli.set(
        name,
        await brotliAsync(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        }),
      );
    }
  };
  if (existsSync(assetsDir)) {
    void warmUp(readdirSync(assetsDir).filter((name) => COMPRESSIBLE[path.extname(name)])).catch(() => {});
  }
  return (req, res, next) => {
    const name = req.path.slice(1);
    const type = COMPRESSIBLE[path.extname(name)];
    const accepts = acceptedEncodings(req.headers['accept-encoding']);
    // Only plain file names of this folder (express.static answers everything else, 404s included).
    if (
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      !type ||
      !/^[\w.-]+$/.test(name) ||
      name.startsWith('.')
    ) {
      next();
      return;
    }
    const send = (encoding: 'br' | 'gzip', body: Buffer) => {
      res.setHeader('content-type', type);
      res.setHeader('content-encoding', encoding);
      res.setHeader('content-length', body.length);
      res.setHeader('vary', 'Accept-Encoding');
      res.setHeader('cache-control', IMMUTABLE);
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const br = accepts.br ? brotli.get(name) : undefined;
    if (br) {
      send('br', br);
      return;
    }
    if (!accepts.gzip) {
      next();
      return;
    }
    gzipOf(name).then((body) => (body ? send('gzip', body) : next()), next);
  };
}

export function staticSite(webDistDir: string): Router {
  const router = Router();
  const indexFile = path.join(webDistDir, 'index.html');
  const named = (route: string) => (req: Request, _res: Response, next: () => void) => {
    req.ctx.route = route;
    next();
  };

  const assetsDir = path.join(webDistDir, 'assets');
  router.use('/assets', named('assets'), precompressedAssets(assetsDir));
  router.use(compression());
  router.use(
    '/assets',
    named('assets'),
    express.static(assetsDir, {
      index: false,
      immutable: true,
      maxAge: '365d',
      redirect: false,
    }),
  );
  router.use(
    named('static'),
    express.static(webDistDir, {
      index: false,
      redirect: false,
      setHeaders: (res) => res.setHeader('cache-control', 'no-cache'),
    }),
  );

  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isReserved(req.path) || !isNavigation(req)) {
      next();
      return;
    }
    req.ctx.route = 'index';
    res.setHeader('cache-control', 'no-cache');
    if (existsSync(indexFile)) {
      res.sendFile(indexFile, { dotfiles: 'deny' });
      return;
    }
    res.type('html').send(PLACEHOLDER);
  });
  return router;
}
