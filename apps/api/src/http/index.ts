import { methodNotAllowed as refuseMethod } from '@review-desk/server/errors';
import { type QueryRecord, queryRecord } from '@review-desk/shared';
import type { Request, RequestHandler } from 'express';

export { errorHandler, notFound } from '@review-desk/server/errors';
export * from './middleware.ts';

/** 405 with Allow for a known path called with another method; OPTIONS gets 204 and Allow. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  return refuseMethod(allowed, { answerOptions: true });
}

/** The query string as the shared schemas parse it, read from the URL as the caller sent it. */
export function queryOf(req: Request): QueryRecord {
  const q = req.originalUrl.indexOf('?');
  return queryRecord(q === -1 ? '' : req.originalUrl.slice(q + 1));
}
