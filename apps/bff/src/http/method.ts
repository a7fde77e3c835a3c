import { MESSAGES } from '@review-desk/shared';
import type { RequestHandler } from 'express';
import { AppError, sendError } from './errors.ts';

/** 405 envelope with Allow, for a known path called with another method. */
export function methodNotAllowed(...allowed: string[]): RequestHandler {
  const allow = allowed.join(', ');
  return (_req, res) => {
    sendError(
      res,
      new AppError('method_not_allowed', MESSAGES.methodNotAllowed(allow), { headers: { allow } }),
    );
  };
}
