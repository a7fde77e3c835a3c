import type { ServerResponse } from 'node:http';
import { fail, MESSAGES, validationFailure } from '@review-desk/shared';
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';

// One error model: domain code → HTTP status, and one place (errorHandler / sendError) that turns
// anything thrown into the seed's envelope {success:false, error}. Never a stack trace in a body.

const STATUS = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  too_many_requests: 429,
  bad_gateway: 502,
  unavailable: 503,
  gateway_timeout: 504,
} as const;
export type ErrorCode = keyof typeof STATUS;

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = STATUS[code];
    this.fields = options.fields;
    this.headers = options.headers;
  }

  static validation(error: z.ZodError): AppError {
    const envelope = validationFailure(error);
    return new AppError('bad_request', envelope.error, envelope.fields ? { fields: envelope.fields } : {});
  }
}

/** Writes a JSON envelope without Express (used on the hot proxy path and before routing). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
) {
  const payload = JSON.stringify(body);
  if (headers) for (const name in headers) res.setHeader(name, headers[name] as string);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(payload));
  res.end(payload);
}

export function sendError(res: ServerResponse, error: AppError): void {
  sendJson(res, error.status, fail(error.message, error.fields), error.headers);
}

/**
 * Answers what can be answered without logging: a response already under way is cut (never a
 * second body), an AppError gets its envelope. False when the error is unexpected.
 */
export function answerKnownError(res: ServerResponse, error: unknown): boolean {
  if (res.headersSent) {
    res.destroy();
    return true;
  }
  if (error instanceof AppError) {
    sendError(res, error);
    return true;
  }
  return false;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (answerKnownError(res, error)) return;
    // Body-parser style errors carry an HTTP status and a type; their messages are safe to map.
    const status =
      typeof error?.status === 'number'
        ? error.status
        : typeof error?.statusCode === 'number'
          ? error.statusCode
          : 500;
    if (status === 413) {
      sendError(res, new AppError('payload_too_large', MESSAGES.bodyTooLarge(error.limit ?? 0)));
      return;
    }
    if (status === 400 && error?.type === 'entity.parse.failed') {
      sendError(res, new AppError('bad_request', MESSAGES.malformedJson));
      return;
    }
    if (status >= 400 && status < 500) {
      sendJson(res, status, fail(status === 404 ? MESSAGES.notFound : 'Bad request.'));
      return;
    }
    logger.error({ err: error, reqId: res.getHeader('x-request-id'), path: req.path }, 'unhandled error');
    sendJson(res, 500, fail(MESSAGES.internal));
  };
}
