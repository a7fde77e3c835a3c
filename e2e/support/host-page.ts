import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_URL } from './stack.ts';

// A business's own website, as the widget meets it: another origin (its own port), with a strict
// Content-Security-Policy that allows scripts and connections from the review service only, no
// inline script or style, no eval, Trusted Types required, and a stylesheet of its own that tries
// its best to restyle everything. Pages: `/` (the snippet), `/frame` (the HTML rendition in an
// iframe), `/host.css`.

export type HostSite = { url: string; close(): Promise<void> };

/** The policy a careful business serves: nothing but itself and the review service. */
export const STRICT_CSP = [
  "default-src 'none'",
  `script-src 'self' ${API_URL}`,
  `connect-src ${API_URL}`,
  "style-src 'self'",
  "img-src 'self'",
  `frame-src ${API_URL}`,
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** Styles a theme might have: they must not reach inside the widget. */
const HOST_CSS = `
body { font-family: Georgia, serif; margin: 2rem; }
h2 { color: rgb(255, 0, 0); text-transform: uppercase; font-size: 40px; }
p, li, a { color: rgb(255, 0, 255) !important; letter-spacing: 4px; }
ul { list-style: square; }
section { display: none; }
`;

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="/host.css"></head>
<body>
<h1>${title}</h1>
<p>Fresh bread every morning.</p>
${body}
<footer><p>Harbour Street, open daily.</p></footer>
</body>
</html>`;

export async function startHostSite(snippet: string, embedUrl: string): Promise<HostSite> {
  const server = http.createServer((req, res) => {
    const headers = { 'content-security-policy': STRICT_CSP, 'cache-control': 'no-store' };
    if (req.url === '/host.css') {
      res.writeHead(200, { ...headers, 'content-type': 'text/css' }).end(HOST_CSS);
    } else if (req.url === '/') {
      res
        .writeHead(200, { ...headers, 'content-type': 'text/html' })
        .end(page('Harbour Street Coffee', snippet));
    } else if (req.url === '/frame') {
      const frame = `<iframe src="${embedUrl}" title="Customer reviews" width="600" height="700"></iframe>`;
      res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(page('Our reviews', frame));
    } else {
      res.writeHead(404, headers).end();
    }
  });
  // A port of its own, whichever is free: another origin than the service's and the dashboard's.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
