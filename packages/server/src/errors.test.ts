import type { AddressInfo } from 'node:net';
import { codedErrorEnvelopeSchema, MESSAGES } from '@review-desk/shared';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, errorHandler, knownError, methodNotAllowed, notFound } from './errors.ts';

describe('AppError', () => {
  it('takes its status and default message from the shared table', () => {
    const error = new AppError('key_missing');
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/API key missing/);
    expect(error.envelope).toEqual({ success: false, error: error.message, code: 'key_missing' });
  });

  it('turns a zod error into validation_failed with one message per field', () => {
    const parsed = z.strictObject({ name: z.string({ error: 'name is required' }) }).safeParse({ extra: 1 });
    const error = AppError.validation(parsed.error!);
    expect(error.code).toBe('validation_failed');
    expect(error.fields).toEqual({ name: 'name is required', extra: 'Unknown field: extra.' });
    expect(error.message).toBe('name is required Unknown field: extra.');
  });
});

describe('knownError', () => {
  it('maps body-parser errors by type, never passing their messages on', () => {
    expect(knownError({ type: 'entity.too.large', limit: 16_384 })).toMatchObject({
      code: 'body_too_large',
      message: MESSAGES.bodyTooLarge(16_384),
    });
    for (const type of ['entity.parse.failed', 'request.aborted', 'request.size.invalid'])
      expect(knownError({ type, message: 'Unexpected token rd_live_x' })?.code).toBe('malformed_json');
    expect(knownError({ type: 'encoding.unsupported' })?.code).toBe('encoding_unsupported');
    expect(knownError({ type: 'charset.unsupported' })?.code).toBe('not_json');
    const other = knownError({ status: 400, message: 'echo of rd_live_secret', expose: true });
    expect(other?.code).toBe('malformed_request');
    expect(other?.message).not.toContain('rd_live_');
  });

  it('reads a locked database as unavailable with Retry-After, and anything else as unexpected', () => {
    expect(knownError({ errcode: 5 })).toMatchObject({
      code: 'unavailable',
      headers: { 'retry-after': '1' },
    });
    expect(knownError(new Error('bug'))).toBeNull();
    expect(knownError('a string')).toBeNull();
  });
});

describe('errorHandler', () => {
  let url = '';
  let close = () => {};
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const app = express();
    app.get('/thrown', () => {
      throw new Error('secret detail at module.ts:12');
    });
    app.get('/refused', () => {
      throw new AppError('rate_limited', undefined, { headers: { 'retry-after': '7' } });
    });
    app.all('/only-get', methodNotAllowed(['GET']));
    app.use(notFound);
    app.use(errorHandler(logger));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const get = async (path: string, method = 'GET') => {
    const response = await fetch(`${url}${path}`, { method });
    return { response, body: codedErrorEnvelopeSchema.parse(await response.json()) };
  };

  it('answers an unexpected error with 500 internal, logs it, and never shows the stack', async () => {
    const { response, body } = await get('/thrown');
    expect(response.status).toBe(500);
    expect(body).toEqual({ success: false, error: 'Internal server error.', code: 'internal' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(lines.some((l) => l.msg === 'unhandled error')).toBe(true);
  });

  it('answers an AppError with its status, code and headers', async () => {
    const { response, body } = await get('/refused');
    expect(response.status).toBe(429);
    expect(body.code).toBe('rate_limited');
    expect(response.headers.get('retry-after')).toBe('7');
  });

  it('answers 404 not_found and 405 method_not_allowed with Allow', async () => {
    expect((await get('/nothing')).body.code).toBe('not_found');
    const wrong = await get('/only-get', 'POST');
    expect(wrong.response.status).toBe(405);
    expect(wrong.body.code).toBe('method_not_allowed');
    expect(wrong.response.headers.get('allow')).toBe('GET');
  });
});
