import { ERROR_CODE_NAMES, ERROR_CODES } from '@review-desk/shared';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { esc, type Html, html, raw, sendPage } from '../http/html.ts';
import { methodNotAllowed } from '../http/index.ts';
import { buildOpenApi, type OpenApiDocument } from './document.ts';

// The OpenAPI document and a readable page rendered from it on the server (no CDN, no script).

type Operation = {
  operationId: string;
  summary: string;
  description: string;
  parameters?: { name: string; description: string; schema: Record<string, unknown> }[];
  requestBody?: {
    content: { 'application/json': { schema: { properties?: Record<string, Record<string, unknown>> } } };
  };
  responses: Record<string, { description: string }>;
};

/** Escapes, then renders `code` and **bold** from the descriptions. */
function prose(text: string): Html {
  return raw(
    esc(text)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>'),
  );
}

function describeSchema(schema: Record<string, unknown>): string {
  const parts: string[] = [];
  if (schema.type) parts.push(String(schema.type));
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.join(', ')}`);
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  if (schema.format) parts.push(String(schema.format));
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(', ');
}

function renderDocs(doc: OpenApiDocument): Html {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
  );
  return html`<main>
<h1>${doc.info.title}</h1>
<p>${doc.info.description}</p>
<p><a href="/api/v1/openapi.json">OpenAPI 3.1 document (JSON)</a></p>
<nav aria-label="Endpoints">${operations.map(({ op }) => html`<a href="#${op.operationId}">${op.summary.split(',')[0]}</a>`)}</nav>
<h2>Authentication</h2>
<p>Send the key on every call as <code>X-API-Key: &lt;key&gt;</code> or <code>Authorization: Bearer &lt;key&gt;</code>. Keys start with <code>rd_live_</code>, belong to one business and carry scopes. Never put a key in a URL: it is refused.</p>
${operations.map(
  ({ path, method, op }) => html`<section id="${op.operationId}">
  <h2><span class="badge">${method.toUpperCase()}</span> <code>${path}</code></h2>
  <p><strong>${op.summary}</strong></p>
  <p>${prose(op.description)}</p>
  ${
    op.parameters
      ? html`<h3>Query parameters</h3><table><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead><tbody>
    ${op.parameters.map((p) => html`<tr><td><code>${p.name}</code></td><td>${describeSchema(p.schema)}</td><td>${p.description}</td></tr>`)}
    </tbody></table>`
      : null
  }
  ${
    op.requestBody
      ? html`<h3>JSON body</h3><table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Notes</th></tr></thead><tbody>
    ${Object.entries(op.requestBody.content['application/json']?.schema.properties ?? {}).map(
      ([name, s]) =>
        html`<tr><td><code>${name}</code></td><td>${describeSchema(s)}</td><td>${String(s.description ?? '')}</td></tr>`,
    )}
    </tbody></table>`
      : null
  }
  <h3>Responses</h3>
  <table><tbody>${Object.entries(op.responses).map(
    ([status, r]) => html`<tr><th scope="row">${status}</th><td>${r.description}</td></tr>`,
  )}</tbody></table>
</section>`,
)}
<h2>Errors</h2>
<p>Every failure is <code>{"success": false, "error": "…", "code": "…"}</code>. Decide on <code>code</code>; <code>error</code> is for people and may change.</p>
<table><thead><tr><th scope="col">Code</th><th scope="col">Status</th><th scope="col">Meaning</th><th scope="col">What to do</th></tr></thead><tbody>
${ERROR_CODE_NAMES.filter((code) => ERROR_CODES[code].from !== 'bff').map(
  (code) =>
    html`<tr><th scope="row"><code>${code}</code></th><td>${ERROR_CODES[code].status}</td><td>${ERROR_CODES[code].message}</td><td>${ERROR_CODES[code].action}</td></tr>`,
)}
</tbody></table>
<h2>Schemas</h2>
${Object.entries(doc.components.schemas).map(
  ([name, schema]) =>
    html`<h3 id="schema-${name}">${name}</h3><pre tabindex="0" aria-label="${name} JSON schema">${JSON.stringify(schema, null, 2)}</pre>`,
)}
</main>`;
}

export function docsRoutes(ctx: AppContext): Router {
  const router = Router();
  let cached: { origin: string; doc: OpenApiDocument; page: Html } | undefined;
  const current = () => {
    if (cached?.origin !== ctx.site.publicOrigin) {
      const doc = buildOpenApi(ctx.site.publicOrigin);
      cached = { origin: ctx.site.publicOrigin, doc, page: renderDocs(doc) };
    }
    return cached;
  };
  router.get('/api/v1/openapi.json', (_req, res) => {
    res.json(current().doc);
  });
  router.get('/docs', (_req, res) => {
    sendPage(res, 200, { title: 'Review Collection Developer API', className: 'wide', body: current().page });
  });
  router.get('/', (_req, res) => {
    res.redirect(302, '/docs');
  });
  router.all('/api/v1/openapi.json', methodNotAllowed(['GET']));
  router.all('/docs', methodNotAllowed(['GET']));
  router.all('/', methodNotAllowed(['GET']));
  return router;
}
