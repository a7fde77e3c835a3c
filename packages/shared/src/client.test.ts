import { describe, expect, it } from 'vitest';
import { parseRetryAfter, readEnvelope } from './client.ts';
import { sendResultSchema } from './send.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('reading envelopes', () => {
  it('returns data of a success envelope', async () => {
    const result = await readEnvelope(
      json(200, {
        success: true,
        data: { requestId: 'r', status: 'sent', channel: 'sms', reviewLink: 'https://x/r/t' },
      }),
      sendResultSchema,
    );
    expect(result).toMatchObject({ ok: true, data: { requestId: 'r', status: 'sent' } });
  });

  it('returns the error, field messages and Retry-After of a failure envelope', async () => {
    const result = await readEnvelope(
      json(429, { success: false, error: 'slow down', fields: { a: 'b' } }, { 'retry-after': '7' }),
      sendResultSchema,
    );
    expect(result).toMatchObject({
      ok: false,
      status: 429,
      error: 'slow down',
      fields: { a: 'b' },
      retryAfterSeconds: 7,
      malformed: false,
    });
  });

  it.each([
    ['HTML', 200, '<html>oops</html>'],
    ['valid JSON but not the envelope', 200, { ok: true }],
    ['a success envelope with the wrong data', 200, { success: true, data: { requestId: 1 } }],
    ['an error page', 502, '<h1>Bad gateway</h1>'],
  ])('marks %s as malformed, never as success', async (_name, status, body) => {
    const result = await readEnvelope(json(status, body), sendResultSchema);
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ malformed: true, status });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
