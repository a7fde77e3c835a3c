import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

// A response body made once and answered many times: its bytes, the same gzipped, and an ETag
// that names its content. A view answers 304 when the browser's copy is current, and the gzipped
// bytes when the browser takes gzip.

export type Representation = {
  type: string;
  body: Buffer;
  gzip: Buffer;
  /** Strong ETag of the identity bytes; the gzipped bytes carry it with `-gz`. */
  etag: string;
  etagGzip: string;
};

export function represent(text: string, type: string): Representation {
  const body = Buffer.from(text);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return { type, body, gzip: gzipSync(body, { level: 9 }), etag: `"${hash}"`, etagGzip: `"${hash}-gz"` };
}

export const representationBytes = (r: Representation) => r.body.length + r.gzip.length + 64;

/**
 * Whether If-None-Match names this content (RFC 9110 §13.1.2: the weak comparison, so `W/` and
 * either coding's tag match): a copy the browser holds is current whichever coding it came in.
 */
export function notModified(ifNoneMatch: string | undefined, r: Representation): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  for (const part of ifNoneMatch.split(',')) {
    const tag = part.trim().replace(/^W\//, '');
    if (tag === r.etag || tag === r.etagGzip) return true;
  }
  return false;
}

/** Whether Accept-Encoding takes gzip (q above 0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** Answers with the representation (or 304); `headers` are set on both. */
export function answer(
  req: IncomingMessage,
  res: ServerResponse,
  r: Representation,
  headers: Readonly<Record<string, string>>,
): void {
  for (const name in headers) res.setHeader(name, headers[name] as string);
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  res.setHeader('vary', 'Accept-Encoding');
  res.setHeader('etag', gzip ? r.etagGzip : r.etag);
  if (notModified(req.headers['if-none-match'], r)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const body = gzip ? r.gzip : r.body;
  res.statusCode = 200;
  res.setHeader('content-type', r.type);
  res.setHeader('content-length', body.length);
  if (gzip) res.setHeader('content-encoding', 'gzip');
  res.end(req.method === 'HEAD' ? undefined : body);
}
