import { describe, expect, it } from 'vitest';
import { interpretReply, isSuccessEnvelope, looksLikeJsonObject } from './answer.ts';

const key = Buffer.from('rd_live_secret');
const reply = (status: number, body: string, contentType = 'application/json; charset=utf-8') => ({
  status,
  contentType,
  body: Buffer.from(body),
});
const message = (answer: { body: Buffer }) => JSON.parse(answer.body.toString()).error as string;
const code = (answer: { body: Buffer }) => JSON.parse(answer.body.toString()).code as string;

describe('interpretReply', () => {
  it('passes a sound success body through as the same bytes', () => {
    const body = ' {"success":true,"data":{}}\n';
    const answer = interpretReply(reply(200, body), 'reviews:read', key);
    expect(answer).toMatchObject({ kind: 'pass', status: 200 });
    expect(answer.body.toString()).toBe(body);
  });

  it('replaces unreadable success bodies with a 502', () => {
    for (const [body, type] of [
      ['<html></html>', 'text/html'],
      ['not json', 'application/json'],
      ['', 'application/json'],
      ['{"success":true,"data":{', 'application/json'],
      ['[1,2]', 'application/json'],
      // Valid JSON, but not the envelope.
      ['{"page":1,"limit":20,"total":0,"reviews":[]}', 'application/json'],
      ['{"success":true}', 'application/json'],
      ['{"success":false,"error":"a failure with a success status"}', 'application/json'],
      ['{"data":{},"success":"true"}', 'application/json'],
    ] as const) {
      expect(interpretReply(reply(200, body, type), 'reviews:read', key)).toMatchObject({
        kind: 'replace',
        status: 502,
      });
    }
  });

  // 401 and 403 are worded for the operator, deciding on the upstream’s code: a business rule the
  // user can act on keeps its code and the upstream's words are quoted; without a code, the words
  // are not read for meaning (a refusal, quoted).
  it.each([
    {
      case: 'a refused key',
      answer: reply(401, '{"success":false,"error":"x","code":"key_invalid"}'),
      scope: 'analytics:read',
      code: 'upstream_key_refused',
      words: /refused the server’s API key/,
    },
    {
      case: 'a missing scope',
      answer: reply(
        403,
        '{"success":false,"error":"This API key lacks the analytics:read scope.","code":"scope_missing"}',
      ),
      scope: 'analytics:read',
      code: 'upstream_scope_missing',
      words:
        'The server’s API key lacks analytics:read. An administrator must give the dashboard server’s API key the analytics:read scope.',
    },
    {
      case: 'a business rule',
      answer: reply(
        403,
        '{"success":false,"error":"Sending allowance exceeded.","code":"allowance_exceeded"}',
      ),
      scope: 'review_requests:write',
      code: 'allowance_exceeded',
      words: 'The review service refused this call: Sending allowance exceeded.',
    },
    {
      case: 'a 403 without a code',
      answer: reply(403, '{"success":false,"error":"This API key lacks the analytics:read scope."}'),
      scope: 'analytics:read',
      code: 'upstream_refused',
      words: 'The review service refused this call: This API key lacks the analytics:read scope.',
    },
    {
      case: 'an HTML 403',
      answer: reply(403, '<h1>Forbidden</h1>', 'text/html'),
      scope: 'reviews:read',
      code: 'upstream_refused',
      words: /needs the reviews:read scope/,
    },
  ])('words $case for the operator', ({ answer, scope, code: expected, words }) => {
    const interpreted = interpretReply(answer, scope, key);
    expect(code(interpreted)).toBe(expected);
    expect(message(interpreted)).toEqual(typeof words === 'string' ? words : expect.stringMatching(words));
  });

  it('passes error envelopes, keeps 429/503 statuses when their bodies are unreadable, else 502', () => {
    expect(interpretReply(reply(400, '{"success":false,"error":"bad"}'), 's', key)).toMatchObject({
      kind: 'pass',
      status: 400,
    });
    expect(interpretReply(reply(429, 'slow down', 'text/plain'), 's', key)).toMatchObject({
      kind: 'replace',
      status: 429,
    });
    expect(interpretReply(reply(503, '<html/>', 'text/html'), 's', key)).toMatchObject({
      kind: 'replace',
      status: 503,
    });
    expect(interpretReply(reply(500, '<html/>', 'text/html'), 's', key)).toMatchObject({
      kind: 'replace',
      status: 502,
    });
    expect(interpretReply(reply(302, ''), 's', key)).toMatchObject({ kind: 'replace', status: 502 });
  });

  it('never relays a body containing the key, nor quotes it in a 403', () => {
    expect(interpretReply(reply(200, '{"k":"rd_live_secret"}'), 's', key)).toMatchObject({
      kind: 'replace',
      status: 502,
    });
    const quoted = interpretReply(
      reply(403, '{"success":false,"error":"key rd_live_secret refused"}'),
      's',
      key,
    );
    expect(message(quoted)).not.toContain('rd_live_secret');
  });
});

describe('isSuccessEnvelope', () => {
  it('accepts the envelope in any key order and spacing', () => {
    expect(isSuccessEnvelope(Buffer.from('{"success":true,"data":{"a":1}}'))).toBe(true);
    expect(isSuccessEnvelope(Buffer.from('\n { "data" : [], "success" : true }'))).toBe(true);
    expect(isSuccessEnvelope(Buffer.from('{"data":{},"extra":1,"success":true}'))).toBe(true);
  });
});

describe('looksLikeJsonObject', () => {
  it('checks the outer braces only', () => {
    expect(looksLikeJsonObject(Buffer.from('\n{ }\r\n'))).toBe(true);
    expect(looksLikeJsonObject(Buffer.from('{'))).toBe(false);
    expect(looksLikeJsonObject(Buffer.from('  '))).toBe(false);
  });
});
