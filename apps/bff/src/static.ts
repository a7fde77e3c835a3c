import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import compression from 'compression';
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from 'express';

// The dashboard (apps/web's Vite build): hashed files under /assets cached for a year as
// immutable, index.html revalidated on every load (so a deploy is picked up at once), the
// dashboard's pages (client-side routes) answered with index.html for any GET, as static hosts do:
// a path without a file extension, or any browser navigation. Unknown API paths keep their JSON 404. Compression applies here only: the
// proxied JSON is relayed as is (see docs/bff.md, "Performance"); assets are compressed once.
//
// The build is immutable, so its files are listed once at start, and only a listed file is ever
// looked for, read or compressed: any other name goes straight to the 404 and nothing about it is
// kept (a flood of made-up names costs no memory). Dot-files are judged only on the path below
// the build's folder, which may itself live under a dot-directory (~/.local/share/…).

const RESERVED = ['/api', '/auth', '/bff', '/assets', '/dev', '/healthz', '/readyz', '/metrics'];

function isReserved(p: string): boolean {
  return RESERVED.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
}

/** A dashboard page: a browser navigation, or any path whose last segment names no file (`/reviews`). */
function isPage(req: Request): boolean {
  if (req.headers['sec-fetch-mode'] === 'navigate' || (req.headers.accept ?? '').includes('text/html'))
    return true;
  return !/\.[^/]*$/.test(req.path);
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
/** While the build is missing, how often a navigation may look for it again. */
const RELIST_EVERY_MS = 2_000;

const isFile = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/**
 * The build's files as URL paths (`/index.html`, `/assets/index-Ab12.js`): files (or links to
 * files), none with a segment starting with a dot below the build's folder. Empty when there is
 * no build.
 */
export function listBuild(dir: string): ReadonlySet<string> {
  if (!existsSync(dir)) return new Set();
  const files = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (!(entry.isFile() || (entry.isSymbolicLink() && isFile(full)))) continue;
    const relative = path.relative(dir, full).split(path.sep);
    if (relative.some((segment) => segment.startsWith('.'))) continue;
    files.add(`/${relative.join('/')}`);
  }
  return files;
}

/** The URL path of a request as a file path of the listing, or null when it cannot be one. */
function listedPath(req: Request): string | null {
  try {
    return decodeURIComponent(req.baseUrl + req.path);
  } catch {
    return null;
  }
}

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
 * load. gzip -9 is made at start, in the background (or on the first request that needs it);
 * brotli 11, slower to make, after it, one file at a time, and sent once it exists. Only files
 * of the listing are compressed: the maps hold at most one entry per file of the build.
 */
function precompressedAssets(webDistDir: string, listed: () => ReadonlySet<string>): RequestHandler {
  const gzipped = new Map<string, Promise<Buffer>>();
  const brotli = new Map<string, Buffer>();
  const file = (name: string) => path.join(webDistDir, name);
  const gzipOf = (name: string): Promise<Buffer> => {
    let entry = gzipped.get(name);
    if (!entry) {
      entry = readFile(file(name)).then((bytes) => gzipAsync(bytes, { level: 9 }));
      gzipped.set(name, entry);
    }
    return entry;
  };
  const warmUp = async (names: string[]) => {
    for (const name of names) await gzipOf(name);
    for (const name of names) {
      const bytes = await readFile(file(name));
      brotli.set(
        name,
        await brotliAsync(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        }),
      );
    }
  };
  const compressible = (name: string) => name.startsWith('/assets/') && COMPRESSIBLE[path.extname(name)];
  void warmUp([...listed()].filter(compressible)).catch(() => {});

  return (req, res, next) => {
    const name = listedPath(req);
    const type = name === null ? undefined : compressible(name);
    // Only files of the listing (express.static answers them otherwise, the 404 everything else).
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !type || !listed().has(name as string)) {
      next();
      return;
    }
    const accepts = acceptedEncodings(req.headers['accept-encoding']);
    const send = (encoding: 'br' | 'gzip', body: Buffer) => {
      res.setHeader('content-type', type);
      res.setHeader('content-encoding', encoding);
      res.setHeader('content-length', body.length);
      res.setHeader('vary', 'Accept-Encoding');
      res.setHeader('cache-control', IMMUTABLE);
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const br = accepts.br ? brotli.get(name as string) : undefined;
    if (br) {
      send('br', br);
      return;
    }
    if (!accepts.gzip) {
      next();
      return;
    }
    gzipOf(name as string).then(
      (body) => send('gzip', body),
      () => {
        gzipped.delete(name as string);
        next();
      },
    );
  };
}

export function staticSite(webDistDir: string): Router {
  const router = Router();
  let files = listBuild(webDistDir);
  let listedAt = Date.now();
  const listed = () => files;
  const named = (route: string) => (req: Request, _res: Response, next: NextFunction) => {
    req.ctx.route = route;
    next();
  };
  /** express.static, asked only about files of the listing. */
  const onlyListed =
    (serve: RequestHandler): RequestHandler =>
    (req, res, next) => {
      const name = listedPath(req);
      if (name !== null && files.has(name)) serve(req, res, next);
      else next();
    };

  router.use('/assets', named('assets'), precompressedAssets(webDistDir, listed));
  router.use(compression());
  router.use(
    '/assets',
    named('assets'),
    onlyListed(
      express.static(path.join(webDistDir, 'assets'), {
        index: false,
        immutable: true,
        maxAge: '365d',
        redirect: false,
      }),
    ),
  );
  router.use(
    named('static'),
    onlyListed(
      express.static(webDistDir, {
        index: false,
        redirect: false,
        setHeaders: (res) => res.setHeader('cache-control', 'no-cache'),
      }),
    ),
  );

  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isReserved(req.path) || !isPage(req)) {
      next();
      return;
    }
    req.ctx.route = 'index';
    res.setHeader('cache-control', 'no-cache');
    // Built after the server started (the placeholder says "build it and reload"): look again.
    if (!files.has('/index.html') && Date.now() - listedAt > RELIST_EVERY_MS) {
      files = listBuild(webDistDir);
      listedAt = Date.now();
    }
    if (files.has('/index.html')) {
      // With `root`, the dot-file rule applies to the path below the build's folder only.
      res.sendFile('index.html', { root: webDistDir, dotfiles: 'deny' });
      return;
    }
    res.type('html').send(PLACEHOLDER);
  });
  return router;
}
