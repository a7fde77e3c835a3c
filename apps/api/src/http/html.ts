import type { Response } from 'express';

// Server-rendered HTML for the customer page, the dev outbox and the API docs. No script runs on
// any of them, so the Content-Security-Policy forbids scripts outright; styles come from one
// stylesheet served by this app. Every piece of text that is not a literal goes through `esc`.

export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A tagged template whose interpolations are escaped, unless wrapped in `raw`. */
export type Html = { readonly html: string };
export function raw(html: string): Html {
  return { html };
}
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return { html: out };
}
function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'object' && 'html' in value) return (value as Html).html;
  return esc(value);
}

export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** A whole page: the shell every server-rendered page shares. */
export function pageDocument(page: {
  title: string;
  body: Html;
  lang?: string;
  className?: string;
  /** Stylesheets of this app, in order (the site's own by default). */
  stylesheets?: readonly string[];
}): string {
  const sheets = (page.stylesheets ?? ['/assets/site.css'])
    .map((href) => `<link rel="stylesheet" href="${esc(href)}">`)
    .join('\n');
  return `<!doctype html>
<html lang="${esc(page.lang ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${esc(page.title)}</title>
<link rel="icon" href="data:,">
${sheets}
</head>
<body class="${esc(page.className ?? '')}">
${page.body.html}
</body>
</html>`;
}

export function sendPage(
  res: Response,
  status: number,
  page: { title: string; body: Html; lang?: string; className?: string },
): void {
  res.status(status).set('content-security-policy', PAGE_CSP).type('html').send(pageDocument(page));
}

export const SITE_CSS = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #f6f8fa; --card: #fff;
  --accent: #0b5cad; --accent-fg: #fff; --border: #d0d7de; --error: #b42318; --focus: #f59e0b; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117;
  --card: #161b22; --accent: #4493f8; --accent-fg: #0d1117; --border: #30363d; --error: #ff7b72; } }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--fg); background: var(--bg); }
main { max-width: 34rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
.card { background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 1.25rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 .5rem; }
h2 { font-size: 1.125rem; margin: 1.5rem 0 .5rem; }
p { margin: 0 0 1rem; }
.muted { color: var(--muted); }
fieldset { border: 0; padding: 0; margin: 0 0 1rem; }
legend { font-weight: 600; margin-bottom: .5rem; }
.stars { display: grid; gap: .5rem; }
.stars label { display: flex; align-items: center; gap: .75rem; min-height: 44px; padding: .5rem .75rem;
  border: 1px solid var(--border); border-radius: 8px; cursor: pointer; }
.stars input { width: 1.25rem; height: 1.25rem; margin: 0; accent-color: var(--accent); }
.stars label:has(input:checked) { border-color: var(--accent); outline: 2px solid var(--accent); }
.glyph { letter-spacing: .1em; color: #8a6500; }
@media (prefers-color-scheme: dark) { .glyph { color: #e3b341; } }
label.block { display: block; font-weight: 600; margin-bottom: .25rem; }
label.check { display: flex; align-items: flex-start; gap: .6rem; margin-top: 1rem; font-weight: 600; cursor: pointer; }
label.check input { flex: none; width: 1.25rem; height: 1.25rem; margin: .15rem 0 0; accent-color: var(--accent); }
textarea { width: 100%; min-height: 7rem; font: inherit; padding: .5rem; border: 1px solid var(--border);
  border-radius: 8px; background: var(--card); color: var(--fg); }
.button, button { display: inline-flex; align-items: center; justify-content: center; min-height: 44px;
  padding: .5rem 1.25rem; border-radius: 8px; border: 1px solid var(--accent); font: inherit; font-weight: 600;
  background: var(--accent); color: var(--accent-fg); text-decoration: none; cursor: pointer; }
.button.secondary { background: transparent; color: var(--accent); }
button.link { background: none; border: 0; padding: 0; min-height: 0; color: var(--muted);
  text-decoration: underline; font-weight: 400; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.error { color: var(--error); border: 1px solid var(--error); border-radius: 8px; padding: .75rem; }
.stack > * + * { margin-top: 1rem; }
footer { margin-top: 2rem; font-size: .875rem; }
.wide main { max-width: 72rem; }
table { border-collapse: collapse; width: 100%; font-size: .875rem; }
th, td { border-bottom: 1px solid var(--border); padding: .4rem .5rem; text-align: left; vertical-align: top; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .875rem; }
pre { background: var(--bg); border: 1px solid var(--border); border-radius: 8px; padding: .75rem; overflow-x: auto; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 4px; border: 1px solid var(--border); }
.failed { color: var(--error); }
nav a { margin-right: 1rem; }
`;
