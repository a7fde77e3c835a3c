import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs middleware one after another as a single Express layer: the same story, told in order,
 * without the router re-matching the path between each step (the proxy's hot path is short).
 * A step that throws or rejects ends the chain in the error handler, as in Express 5.
 */
export function inOrder(...steps: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null && error !== 'route' && error !== 'router') {
        next(error);
        return;
      }
      const handler = steps[index++];
      if (!handler) {
        next();
        return;
      }
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.then(undefined, next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
