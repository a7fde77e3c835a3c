import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Clock, FakeClock } from '@review-desk/server/clock';
import { healthRoutes } from '@review-desk/server/health';
import { API_PREFIX } from '@review-desk/shared';
import express from 'express';
import { analyticsRoutes } from './analytics/routes.ts';
import { drainAll } from './background.ts';
import type { AppContext } from './context.ts';
import { devOutboxRoutes } from './delivery/outbox-routes.ts';
import { twilioWebhookRoutes } from './delivery/twilio-routes.ts';
import type { Config } from './env.ts';
import { devClockRoutes } from './http/dev-clock.ts';
import {
  cors,
  credentials,
  errorHandler,
  notFound,
  rateLimit,
  requestId,
  requestLogging,
  securityHeaders,
} from './http/index.ts';
import { squareRoutes } from './integrations/square/routes.ts';
import { docsRoutes } from './openapi/routes.ts';
import { requestsRoutes } from './requests/read-routes.ts';
import { sendRoutes } from './requests/routes.ts';
import { reviewPageRoutes } from './review-page/routes.ts';
import { googleRoutes } from './reviews/google/routes.ts';
import { replyRoutes } from './reviews/reply/routes.ts';
import { reviewsRoutes } from './reviews/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { widgetFastPath } from './widget/fast-path.ts';
import { widgetOwnerRoutes } from './widget/owner-routes.ts';
import { widgetPublicRoutes } from './widget/public-routes.ts';

// The service's HTTP side over its context (server.ts composes the context): the Express app,
// its middleware and routes in the order of a request's story, behind the widget's fast path.

/** The Express app over the context, its middleware in the order of a request's story. */
export function expressApp(ctx: AppContext, config: Config, clock: Clock, metrics: AppContext['metrics']) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', false); // every route reads the raw query through shared queryRecord

  app.use(requestId());
  app.use(requestLogging(ctx));
  app.use(securityHeaders(ctx));
  // Visitors of businesses' websites whose answer is not in memory yet (widget/fast-path.ts).
  app.use(widgetPublicRoutes(ctx));
  app.use(API_PREFIX, cors(ctx), credentials(ctx), rateLimit(ctx));
  app.use(sendRoutes(ctx));
  app.use(reviewsRoutes(ctx));
  app.use(replyRoutes(ctx));
  app.use(googleRoutes(ctx));
  app.use(analyticsRoutes(ctx));
  app.use(requestsRoutes(ctx));
  app.use(twilioWebhookRoutes(ctx));
  app.use(webhookRoutes(ctx));
  app.use(squareRoutes(ctx));
  app.use(settingsRoutes(ctx));
  app.use(widgetOwnerRoutes(ctx));
  app.use(docsRoutes(ctx));
  app.use(reviewPageRoutes(ctx));
  app.use(
    healthRoutes({
      checks: {
        database: async () => {
          await ctx.store.db.get('SELECT 1 AS ok');
          return 'ok';
        },
      },
      metrics: async () => ({ type: metrics.registry.contentType, body: await metrics.registry.metrics() }),
      metricsToken: config.metricsToken,
      answerOptions: true,
    }),
  );
  if (config.devOutbox) app.use(devOutboxRoutes(ctx));
  if (config.devClock && clock instanceof FakeClock)
    app.use(devClockRoutes(clock, { drain: () => drainAll(ctx) }));
  app.use(notFound);
  app.use(errorHandler(ctx.logger));
  // Widget views answered from memory go out before Express; everything else goes through it.
  const fastPath = widgetFastPath(ctx);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (!fastPath(req, res)) app(req, res);
  };
  return { app, handler };
}
