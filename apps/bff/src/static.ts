import { existsSync } from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express, { type Request, type Response, Router } from 'express';

// The dashboard (apps/web's Vite build): hashed files under /assets cached for a year as
// immutable, index.html revalidated on every load (so a deploy is picked up at once), client-side
// routes answered with index.html for browser navigations. Compression applies here only: the
// proxied JSON is relayed as is (see docs/bff.md, "Performance").

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

export function staticSite(webDistDir: string): Router {
  const router = Router();
  const indexFile = path.join(webDistDir, 'index.html');
  const named = (route: string) => (req: Request, _res: Response, next: () => void) => {
    req.ctx.route = route;
    next();
  };

  router.use(compression());
  router.use(
    '/assets',
    named('assets'),
    express.static(path.join(webDistDir, 'assets'), {
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
