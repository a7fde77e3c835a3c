import type { RequestHandler } from 'express';

/** Names the route on the request (its access line and metrics say which route answered). */
export const named =
  (route: string): RequestHandler =>
  (req, _res, next) => {
    req.ctx.route = route;
    next();
  };
