import { methodNotAllowed as refuseMethod } from '@review-desk/server/errors';
import type { RequestHandler } from 'express';

export { errorHandler, notFound } from '@review-desk/server/errors';
export * from './middleware.ts';

/** 405 with Allow for a known path called with another method; OPTIONS gets 204 and Allow. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  return refuseMethod(allowed, { answerOptions: true });
}
