import { ERROR_CODES, type ErrorCode, errorEnvelopeSchema, fail, isErrorCode } from '@review-desk/shared';
import { isJsonContentType } from '../http/body.ts';
import { PROXY_MESSAGES } from './messages.ts';

// Turns what the upstream answered (status, headers, body bytes) into what the browser gets.
// The status and envelope pass through unchanged when they are readable; 401/403 get words that
// say what to fix; anything unreadable becomes a plain 502 envelope. The key's bytes are searched
// for in every body, so even an upstream that echoes the key cannot leak it through the BFF.

export type UpstreamReply = {
  status: number;
  contentType: string | undefined;
  body: Buffer;
};

export type Answer =
  | { kind: 'pass'; status: number; body: Buffer }
  | { kind: 'replace'; status: number; body: Buffer; reason: string };

const json = (
  code: ErrorCode,
  message: string,
  reason: string,
  status = ERROR_CODES[code].status,
): Answer => ({
  kind: 'replace',
  status,
  body: Buffer.from(JSON.stringify(fail(code, message))),
  reason,
});

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Cheap structural check of a body: a JSON object. Reads are not re-parsed on the hot path (the
 * dashboard parses them with the shared schemas); an HTML error page, plain text, an empty or a
 * truncated body all fail it.
 */
export function looksLikeJsonObject(body: Buffer): boolean {
  let start = 0;
  let end = body.length - 1;
  while (start <= end && WS.has(body[start] as number)) start++;
  while (end >= start && WS.has(body[end] as number)) end--;
  return end > start && body[start] === 0x7b && body[end] === 0x7d;
}

const SUCCESS_PREFIX = Buffer.from('{"success":true,"data":');

/**
 * Whether a 2xx body is the success envelope (`success: true` and `data`: docs/api.md, "The
 * envelope"). Valid JSON that is not the envelope (a bare list, another API's shape) must not reach
 * the dashboard as a success. Our service writes `success` first, so the usual case is a byte
 * comparison of the opening and the closing brace; any other spelling is parsed.
 */
export function isSuccessEnvelope(body: Buffer): boolean {
  if (!looksLikeJsonObject(body)) return false;
  let start = 0;
  while (WS.has(body[start] as number)) start++;
  const end = start + SUCCESS_PREFIX.length;
  if (body.length > end && body.compare(SUCCESS_PREFIX, 0, SUCCESS_PREFIX.length, start, end) === 0)
    return true;
  try {
    const value = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    return value.success === true && Object.hasOwn(value, 'data');
  } catch {
    return false;
  }
}

/** The upstream's failure envelope: its message, and its code when it is one of the table's. */
function upstreamError(body: Buffer): { message: string; code: ErrorCode | null } | null {
  try {
    const parsed = errorEnvelopeSchema.safeParse(JSON.parse(body.toString('utf8')));
    if (!parsed.success) return null;
    return { message: parsed.data.error, code: isErrorCode(parsed.data.code) ? parsed.data.code : null };
  } catch {
    return null;
  }
}

export function interpretReply(reply: UpstreamReply, scope: string, keyBytes: Buffer): Answer {
  const { status, body } = reply;
  const jsonBody = isJsonContentType(reply.contentType);
  const keyInBody = body.includes(keyBytes);

  // 401/403 are answered in our own words; the upstream's text is quoted only when it is safe.
  // What they mean is read from the upstream's code (an upstream that sends none: the status).
  if (status === 401)
    return json('upstream_key_refused', PROXY_MESSAGES.keyRefused, 'upstream refused the key');
  if (status === 403) {
    const refusal = jsonBody ? upstreamError(body) : null;
    if (refusal?.code === 'scope_missing') {
      return json('upstream_scope_missing', PROXY_MESSAGES.keyLacksScope(scope), 'upstream 403 (scope)');
    }
    // A business rule the user can act on (allowance, suspension) keeps its code.
    const code = refusal?.code ?? 'upstream_refused';
    const message = PROXY_MESSAGES.refused(scope, keyInBody ? null : (refusal?.message ?? null));
    return json(code, message, 'upstream 403', 403);
  }
  if (keyInBody)
    return json('upstream_unreadable', PROXY_MESSAGES.unreadable, 'upstream body contained the API key');
  if (status >= 200 && status < 300) {
    if (jsonBody && isSuccessEnvelope(body)) return { kind: 'pass', status, body };
    return json('upstream_unreadable', PROXY_MESSAGES.unreadable, 'unreadable success body');
  }
  if (status >= 400) {
    if (jsonBody && upstreamError(body) !== null) return { kind: 'pass', status, body };
    // Keep the statuses a client backs off on (docs/api.md, Errors), with a plain message of our own.
    // 404: a deployment without an endpoint (the requests extension): the dashboard falls back.
    if (status === 404) return json('not_found', PROXY_MESSAGES.notFound, 'unreadable 404 body');
    if (status === 429) return json('rate_limited', PROXY_MESSAGES.rateLimited, 'unreadable 429 body');
    if (status === 503) return json('unavailable', PROXY_MESSAGES.unavailable(status), 'unreadable 503 body');
    return json('upstream_unreadable', PROXY_MESSAGES.unreadable, `unreadable ${status} body`);
  }
  // 1xx/3xx: the API answers neither; following a redirect would leave the allow-list.
  return json('upstream_unreadable', PROXY_MESSAGES.unreadable, `unexpected status ${status}`);
}
