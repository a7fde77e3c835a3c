import { AppError } from '@review-desk/server/errors';
import {
  analyticsQuerySchema,
  analyticsResultSchema,
  analyticsSearchParams,
  BFF_PATHS,
  errorEnvelopeSchema,
  LOW_RATING_MAX,
  mapBounded,
  type OverviewRow,
  ok,
  overviewFigures,
  reviewListSchema,
} from '@review-desk/shared';
import { type RequestHandler, Router } from 'express';
import { z } from 'zod';
import type { RouteGates } from '../gates.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { interpretReply } from '../proxy/answer.ts';
import { PROXY_MESSAGES } from '../proxy/messages.ts';
import type { LocationDirectory, RoutedLocation } from './directory.ts';
import { getFromLocation, LOCATION_READS, type LocationRead, pendingReviewsQuery } from './upstream-get.ts';

// GET /bff/overview?days=N: the Locations overview in one call. The BFF fans out to the user's
// locations, at most OVERVIEW_PARALLEL at a time, each call with that location's own key and
// upstream (its analytics, and its pending reviews minus those rated above 2★: two one-row pages
// whose totals answer it). A location whose calls fail becomes a row with its error, in the
// words the proxy would have used; the others still answer.

export const OVERVIEW_PARALLEL = 16;

class RowFailure extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.code = code;
  }
}

async function upstreamGet<S extends z.core.$ZodType>(
  read: LocationRead,
  schema: S,
  requestId: string,
): Promise<z.output<S>> {
  const { location, endpoint } = read;
  const reply = await getFromLocation(read, requestId);
  if (reply.kind === 'error') {
    throw reply.reason === 'timeout'
      ? new RowFailure(PROXY_MESSAGES.timeout, 'upstream_timeout')
      : new RowFailure(PROXY_MESSAGES.unreachable, 'upstream_unreachable');
  }
  const answer = interpretReply(
    { status: reply.status, contentType: reply.headers.get('content-type') ?? undefined, body: reply.body },
    LOCATION_READS[endpoint].scope,
    Buffer.from(location.upstream.key),
  );
  const parsed = JSON.parse(answer.body.toString('utf8')) as unknown;
  if (answer.status >= 200 && answer.status < 300) {
    const data = z.safeParse(schema, (parsed as { data?: unknown }).data);
    if (data.success) return data.data;
    throw new RowFailure(PROXY_MESSAGES.unreadable, 'upstream_unreadable');
  }
  const envelope = errorEnvelopeSchema.safeParse(parsed);
  throw new RowFailure(
    envelope.success ? envelope.data.error : PROXY_MESSAGES.unreadable,
    envelope.success ? envelope.data.code : 'upstream_unreadable',
  );
}

async function overviewRow(location: RoutedLocation, days: number, requestId: string): Promise<OverviewRow> {
  const pending = (minRating?: number) =>
    upstreamGet(
      { location, endpoint: 'reviews', query: pendingReviewsQuery(minRating) },
      reviewListSchema,
      requestId,
    );
  const [analytics, all, aboveLow] = await Promise.all([
    upstreamGet(
      { location, endpoint: 'analytics', query: analyticsSearchParams({ days }) },
      analyticsResultSchema,
      requestId,
    ),
    pending(),
    pending(LOW_RATING_MAX + 1),
  ]);
  return {
    slug: location.slug,
    name: location.name,
    ok: true,
    ...overviewFigures(analytics, { total: all.total, ratedAboveLow: aboveLow.total }),
  };
}

export function overviewRoutes(deps: { directory: LocationDirectory; gates: RouteGates }): Router {
  const router = Router();
  const name: RequestHandler = (req, _res, next) => {
    req.ctx.route = 'overview';
    next();
  };
  router.get(BFF_PATHS.overview, name, gateway(deps.gates.overview), async (req, res) => {
    const url = req.url;
    const q = url.indexOf('?');
    const params = Object.fromEntries(new URLSearchParams(q === -1 ? '' : url.slice(q + 1)));
    const query = analyticsQuerySchema.safeParse(params);
    if (!query.success) throw AppError.validation(query.error);
    const mine = await deps.directory.forUser(req.ctx.session!.user.id);
    const settled = await mapBounded(mine, OVERVIEW_PARALLEL, (location) =>
      overviewRow(location, query.data.days, req.ctx.id),
    );
    const rows = settled.map((result, i): OverviewRow => {
      if (result.ok) return result.value;
      const location = mine[i] as RoutedLocation;
      const failure =
        result.error instanceof RowFailure
          ? result.error
          : new RowFailure(PROXY_MESSAGES.unreadable, 'upstream_unreadable');
      return {
        slug: location.slug,
        name: location.name,
        ok: false,
        error: failure.message,
        code: failure.code,
      };
    });
    res.json(ok({ rows }));
  });
  router.all(BFF_PATHS.overview, methodNotAllowed('GET'));
  return router;
}
