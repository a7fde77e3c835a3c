import type { ServerResponse } from 'node:http';
import { AppError, sendError } from '@review-desk/server/errors';
import { LOCATION_SLUG_PATTERN, splitLocationPath } from '@review-desk/shared';
import type { NextFunction, Request, Response } from 'express';
import type { Gate, GateRequest } from '../http/gate.ts';
import type { LocationDirectory, RoutedLocation } from './directory.ts';

// A call names its location in its path, `/l/<slug>/…`; the prefix is taken off here, before
// any route sees the path, and the slug noted on the request. The location gate then decides, once
// the session is known: a location the user lacks is refused (403) before anything goes upstream;
// no prefix addresses the user's first location, so clients written before locations still work.

const NOT_FOUND = new AppError('not_found');

/** Express layer: `/l/<slug>/rest` → `/rest` with the slug noted; a malformed slug is a 404. */
export function locationPrefix() {
  return (req: Request, res: Response, next: NextFunction): void => {
    req.ctx.locationSlug = null;
    const url = req.url;
    if (!url.startsWith('/l/')) {
      next();
      return;
    }
    const q = url.indexOf('?');
    const split = splitLocationPath(q === -1 ? url : url.slice(0, q));
    if (split === null || !LOCATION_SLUG_PATTERN.test(split.slug)) {
      sendError(res as ServerResponse, NOT_FOUND);
      return;
    }
    req.ctx.locationSlug = split.slug;
    req.url = q === -1 ? split.rest : split.rest + url.slice(q);
    next();
  };
}

const FORBIDDEN = new AppError('location_forbidden');
const NONE = new AppError(
  'location_forbidden',
  'You do not have access to any location. Ask an owner for access.',
);
const UNKNOWN = new AppError('location_not_found');

function choose(req: GateRequest, mine: readonly RoutedLocation[], directory: LocationDirectory) {
  const wanted = req.ctx.locationSlug;
  const found = wanted === null ? mine[0] : mine.find((l) => l.slug === wanted);
  if (found) {
    req.ctx.location = found;
    return null;
  }
  if (wanted === null) return NONE;
  return directory.exists(wanted).then((there) => (there ? FORBIDDEN : UNKNOWN));
}

/** Gate (after the session): the request's location, or the refusal. Synchronous while cached. */
export function locationGate(directory: LocationDirectory): Gate {
  return (req) => {
    const mine = directory.forUser(req.ctx.session!.user.id);
    return mine instanceof Promise
      ? mine.then((m) => choose(req, m, directory))
      : choose(req, mine, directory);
  };
}
