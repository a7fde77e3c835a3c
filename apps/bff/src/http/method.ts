import { methodNotAllowed as refuseMethod } from '@review-desk/server/errors';
import type { RequestHandler } from 'express';

/** 405 envelope with Allow, for a known path called with another method. */
export function methodNotAllowed(...allowed: string[]): RequestHandler {
  return refuseMethod(allowed);
}
