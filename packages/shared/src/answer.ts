import { errorEnvelopeSchema, successEnvelopeSchema } from './envelope.ts';
import type { ErrorCode } from './errors.ts';
import type { z } from './zod.ts';

// Reading an answer of the API or the BFF: the envelope, its data checked by the endpoint's
// schema, the Retry-After. A discriminated result, never a throw for an HTTP failure, so callers
// handle 400/401/403/429/5xx explicitly; network failures (fetch rejecting) do propagate.

export type ApiSuccess<T> = { ok: true; status: number; data: T; headers: Headers };
export type ApiFailure = {
  ok: false;
  status: number;
  error: string;
  /** The envelope's code when it is one of ours (errors.ts); null otherwise: decide on `status`. */
  code: ErrorCode | null;
  fields?: Record<string, string>;
  /** Seconds to wait, from Retry-After (seconds or HTTP date); null when absent. */
  retryAfterSeconds: number | null;
  /** True when the body was not the API's envelope (or not JSON at all). */
  malformed: boolean;
  headers: Headers;
};
export type ApiResponse<T> = ApiSuccess<T> | ApiFailure;

export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** A failure as the answer gave it: its `code` not yet looked up in the error table. */
export type AnswerFailure = Omit<ApiFailure, 'code'> & { code: string | null };

/**
 * Reads a Response as the API's envelope, parsing `data` with the given schema. A failure's code
 * is passed on as sent: `readEnvelope` (client.ts) keeps it only when it is one of ours, from the
 * error table, which a caller that needs it only on failure can load then.
 */
export async function readAnswer<S extends z.core.$ZodType>(
  response: Response,
  dataSchema: S,
): Promise<ApiSuccess<z.output<S>> | AnswerFailure> {
  const headers = response.headers;
  const retryAfterSeconds = parseRetryAfter(headers.get('retry-after'));
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok) {
    const parsed = successEnvelopeSchema(dataSchema).safeParse(body);
    if (parsed.success)
      return { ok: true, status: response.status, data: parsed.data.data as z.output<S>, headers };
    return {
      ok: false,
      status: response.status,
      error: 'The service answered with a response this client cannot read.',
      code: null,
      retryAfterSeconds,
      malformed: true,
      headers,
    };
  }
  const failure = errorEnvelopeSchema.safeParse(body);
  if (failure.success) {
    return {
      ok: false,
      status: response.status,
      error: failure.data.error,
      code: failure.data.code ?? null,
      ...(failure.data.fields ? { fields: failure.data.fields } : {}),
      retryAfterSeconds,
      malformed: false,
      headers,
    };
  }
  return {
    ok: false,
    status: response.status,
    error: `Request failed with HTTP ${response.status}.`,
    code: null,
    retryAfterSeconds,
    malformed: true,
    headers,
  };
}
