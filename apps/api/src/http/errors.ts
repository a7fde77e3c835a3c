import { ERROR_TABLE, fail, MESSAGES } from '@review-desk/shared';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isAppError } from '../domain/errors.ts';
import type { Logger } from '../logger.ts';

// One place turns any thrown thing into the seed's envelope {success:false, error} (§2, §7).
// A stack trace goes to the log, never to the caller.

type BodyParserError = Error & { type?: string; status?: number; expose?: boolean };

export function errorHandler(logger: Logger, bodyLimit: number): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (isAppError(error)) {
      if (error.headers) res.set(error.headers);
      res.status(error.status).json(fail(error.message, error.fields));
      return;
    }
    const parserError = error as BodyParserError;
    switch (parserError.type) {
      case 'entity.too.large':
        res.status(413).json(fail(MESSAGES.bodyTooLarge(bodyLimit)));
        return;
      case 'entity.parse.failed':
        res.status(400).json(fail(MESSAGES.malformedJson));
        return;
      case 'encoding.unsupported':
      case 'charset.unsupported':
        res.status(415).json(fail(MESSAGES.notJson));
        return;
      case 'request.aborted':
      case 'request.size.invalid':
      case 'stream.encoding.set':
        res.status(400).json(fail(MESSAGES.malformedJson));
        return;
    }
    // Other client errors raised by Express itself (e.g. a path that is not valid percent-encoding)
    // carry a safe message when `expose` is set.
    const status = parserError.status;
    if (error instanceof URIError && status === 400) {
      res.status(400).json(fail('Malformed URL: a path segment is not valid percent-encoding.'));
      return;
    }
    if (typeof status === 'number' && status >= 400 && status < 500 && parserError.expose) {
      res.status(status).json(fail(parserError.message));
      return;
    }
    const errcode = (error as { errcode?: unknown }).errcode;
    const busy = errcode === 5 || errcode === 6; // SQLITE_BUSY, SQLITE_LOCKED
    if (busy) {
      // The database stayed locked past busy_timeout: a transient server-side failure (seed §7).
      logger.warn({ reqId: req.id, err: error }, 'database busy');
      res.status(503).set('retry-after', '1').json(fail(ERROR_TABLE[503].meaning));
      return;
    }
    logger.error({ reqId: req.id, err: error }, 'unhandled error');
    res.status(500).json(fail(MESSAGES.internal));
  };
}

export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json(fail(MESSAGES.notFound));
};

/** 405 for a known path with another method; Allow names what the path accepts. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  const allow = allowed.join(', ');
  return (req, res) => {
    if (req.method === 'OPTIONS') {
      res.status(204).set('allow', `${allow}, OPTIONS`).end();
      return;
    }
    res
      .status(405)
      .set('allow', allow)
      .json(fail(MESSAGES.methodNotAllowed(allow)));
  };
}
