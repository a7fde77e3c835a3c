import type { ServerResponse } from 'node:http';
import {
  type CodedErrorEnvelope,
  ERROR_CODES,
  type ErrorCode,
  fail,
  MESSAGES,
  validationFailure,
} from '@review-desk/shared';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';

// The one error model of both services: code throws AppError with a code from the shared table
// (its status comes with it), and one place — errorHandler for Express, sendError elsewhere —
// turns anything thrown into the envelope {success:false, error, code}. A stack trace goes to
// the log, never to the caller; no message repeats what the caller sent.

export type AppErrorOptions = {
  fields?: Record<string, string>;
  headers?: Record<string, string>;
  /** More of the envelope, for a code whose answer says more (a 409's `current` state). */
  extra?: Record<string, unknown>;
};

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly extra: Record<string, unknown> | undefined;

  /** `message` defaults to the table's message for the code. */
  constructor(code: ErrorCode, message?: string, options: AppErrorOptions = {}) {
    super(message ?? ERROR_CODES[code].message);
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.fields = options.fields;
    this.headers = options.headers;
    this.extra = options.extra;
  }

  /** 400 validation_failed from a zod error, in the shared validationFailure wording. */
  static validation(error: z.core.$ZodError): AppError {
    const envelope = validationFailure(error);
    return new AppError(
      'validation_failed',
      envelope.error,
      envelope.fields ? { fields: envelope.fields } : {},
    );
  }

  get envelope(): CodedErrorEnvelope {
    const envelope = fail(this.code, this.message, this.fields);
    return this.extra ? { ...this.extra, ...envelope } : envelope;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** Writes a JSON answer with plain Node (works on Express's response too). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  const payload = JSON.stringify(body);
  if (headers) for (const name in headers) res.setHeader(name, headers[name] as string);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(payload));
  res.end(payload);
}

/** The error's envelope with its status and headers; never cached (it may describe a session). */
export function sendError(res: ServerResponse, error: AppError): void {
  res.setHeader('cache-control', 'no-store');
  sendJson(res, error.status, error.envelope, error.headers);
}

type ThrownByLibraries = {
  type?: unknown;
  status?: unknown;
  statusCode?: unknown;
  limit?: unknown;
  errcode?: unknown;
};

/**
 * The AppError a thrown value stands for, when it is one the caller caused or a known transient
 * failure: body-parser's errors (by type), a path that is not valid percent-encoding, other 4xx
 * errors from Express, a database that stayed locked. Null for anything unexpected. Library
 * messages are never passed on: some quote what the caller sent.
 */
export function knownError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (typeof error !== 'object' || error === null) return null;
  const e = error as ThrownByLibraries;
  switch (e.type) {
    case 'entity.too.large':
      return new AppError(
        'body_too_large',
        typeof e.limit === 'number' ? MESSAGES.bodyTooLarge(e.limit) : undefined,
      );
    case 'entity.parse.failed':
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError('malformed_json');
    case 'encoding.unsupported':
      return new AppError('encoding_unsupported');
    case 'charset.unsupported':
      return new AppError('not_json');
  }
  const status =
    typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 0;
  if (error instanceof URIError && status === 400) return new AppError('malformed_url');
  if (status === 404) return new AppError('not_found');
  if (status === 413) return new AppError('body_too_large');
  if (status >= 400 && status < 500) return new AppError('malformed_request');
  // SQLITE_BUSY, SQLITE_LOCKED: the database stayed locked past its busy timeout.
  if (e.errcode === 5 || e.errcode === 6)
    return new AppError('unavailable', undefined, { headers: { 'retry-after': '1' } });
  return null;
}

/**
 * Answers what can be answered without logging an error: a response already under way is cut
 * (never a second body), a known error gets its envelope. False when the error is unexpected.
 */
export function answerKnownError(res: ServerResponse, error: unknown, logger?: Logger): boolean {
  if (res.headersSent) {
    res.destroy();
    return true;
  }
  const known = knownError(error);
  if (known === null) return false;
  if (known.code === 'unavailable' && logger) {
    logger.warn({ reqId: res.getHeader('x-request-id'), err: error }, 'database busy');
  }
  sendError(res, known);
  return true;
}

/** Answers an unexpected error: logged with its stack, the caller gets 500 `internal`. */
export function answerError(res: ServerResponse, error: unknown, logger: Logger, path?: string): void {
  if (answerKnownError(res, error, logger)) return;
  logger.error({ err: error, reqId: res.getHeader('x-request-id'), path }, 'unhandled error');
  sendError(res, new AppError('internal'));
}

/** Express's last handler: every error becomes the envelope. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => answerError(res, error, logger, req.path);
}

/** 404 `not_found` for whatever no route answered. */
export const notFound: RequestHandler = (_req, res) => {
  sendError(res, new AppError('not_found'));
};

/**
 * 405 `method_not_allowed` for a known path called with another method; `Allow` names what the
 * path accepts. With `answerOptions`, OPTIONS gets 204 and the Allow list instead.
 */
export function methodNotAllowed(
  allowed: readonly string[],
  options: { answerOptions?: boolean } = {},
): RequestHandler {
  const allow = allowed.join(', ');
  return (req, res) => {
    if (options.answerOptions && req.method === 'OPTIONS') {
      res.status(204).set('allow', `${allow}, OPTIONS`).end();
      return;
    }
    sendError(
      res,
      new AppError('method_not_allowed', MESSAGES.methodNotAllowed(allow), { headers: { allow } }),
    );
  };
}
