import type { Database } from '@review-desk/server/db/types';
import { AppError, errorHandler, sendError } from '@review-desk/server/errors';
import { healthRoutes } from '@review-desk/server/health';
import { type Served, serve } from '@review-desk/server/serve';
import express, { type Express } from 'express';
import { alertRoutes } from './alerts/routes.ts';
import { type Alerts, createAlerts } from './alerts/service.ts';
import type { CookieSettings } from './auth/cookies.ts';
import { deviceCookies } from './auth/devices.ts';
import { authRoutes } from './auth/routes.ts';
import { createSessionStore, type SessionEvent, type SessionStore } from './auth/sessions.ts';
import { createLoginThrottle } from './auth/throttle.ts';
import { createUserStore, type UserStore } from './auth/users.ts';
import { type BulkModule, openBulk } from './bulk/open.ts';
import { recentContactCheck } from './bulk/recent.ts';
import { bulkRoutes } from './bulk/routes.ts';
import { locationSender } from './bulk/senders.ts';
import type { Config } from './env.ts';
import { createUserRate } from './fair-share/user-rate.ts';
import { createGates } from './gates.ts';
import { type GateRequest, gateway } from './http/gate.ts';
import { answerPreflight, type OriginPolicy } from './http/origin.ts';
import { createContactHasher } from './journal/contact.ts';
import { createJournal, type Journal } from './journal/journal.ts';
import { sendHistoryRoutes } from './journal/routes.ts';
import { developmentUpstreams } from './locations/dev-upstream.ts';
import { createLocationDirectory, type LocationDirectory } from './locations/directory.ts';
import { locationPrefix } from './locations/gate.ts';
import { createHandlerSet, type HandlerSet } from './locations/handlers.ts';
import { type OpenedLocations, openLocations } from './locations/open.ts';
import { overviewRoutes } from './locations/overview.ts';
import { locationRoutes } from './locations/routes.ts';
import type { LogSink } from './log.ts';
import { type Metrics, metricsText } from './metrics.ts';
import { createReadTargets } from './proxy/read-targets.ts';
import { createProxy } from './proxy/routes.ts';
import { createReviewJournal, type ReviewJournal } from './replies/journal.ts';
import { replyRoutes } from './replies/routes.ts';
import { googleSettingsRoutes } from './settings/google.ts';
import { integrationRoutes } from './settings/integrations-routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { staticSite } from './static.ts';
import { type DatabaseSettings, metaValue, openBffDatabase } from './store/database.ts';
import { upstreamProbe } from './upstream-probe.ts';
import { userRoutes } from './users/routes.ts';

// Composition: the stores, the proxy, and the middleware in the order a request meets them —
// the entry gates (request id, security headers, safe target, public Host, cross-origin; see
// gates.ts) → an allowed origin's preflight → the `/l/<slug>` prefix taken off (locations/gate.ts)
// → the allow-listed proxy (allow-list → the route's gates → the location's forwarder) → health →
// auth → the BFF's own API → the dashboard → 404 → error envelope.

export type Stores = {
  db: Database;
  users: UserStore;
  sessions: SessionStore;
  journal: Journal;
  /** Who answered what: each change asked for on a review, and how it went. */
  reviewJournal: ReviewJournal;
  /** The secret contacts are hashed with, the same for every process on the database. */
  contactSecret: string;
};

/**
 * Opens the BFF's database and its stores. `instanceId` is this running BFF's lease (shared by its
 * cluster workers): the journal's in-flight entries carry it.
 */
export async function openStores(
  config: DatabaseSettings & Pick<Config, 'session'>,
  instanceId: string,
  publish?: (event: SessionEvent) => void,
): Promise<Stores> {
  const db = await openBffDatabase(config);
  const contactSecret = await metaValue(db, 'contact_hash_secret');
  if (!contactSecret) throw new Error('database has no contact hash secret');
  return {
    db,
    users: createUserStore(db),
    sessions: createSessionStore(db, config.session, publish),
    journal: createJournal(db, instanceId),
    reviewJournal: createReviewJournal(db),
    contactSecret,
  };
}

/** Periodic clean-up: expired sessions, stale throttle windows and user shares, forgotten keys, old history. */
export async function runMaintenance(stores: Stores, config: Config): Promise<void> {
  await stores.sessions.sweep();
  await createLoginThrottle(stores.db).sweep();
  if (config.userRatePerMinute > 0) await createUserRate(stores.db, config.userRatePerMinute).sweep();
  await stores.journal.orphanStale(config.upstreamTimeoutMs + 5_000);
  await stores.journal.cleanup(config.idempotencyRetentionMs, config.sendHistoryMs);
  await stores.reviewJournal.sweep(config.upstreamTimeoutMs + 5_000, config.sendHistoryMs);
}

export type Bff = {
  /** The server's request listener. */
  app: Express;
  stores: Stores;
  /** Every location's forwarders (sends in flight are drained on shutdown). */
  handlers: HandlerSet;
  locations: OpenedLocations & { directory: LocationDirectory };
  /** Low-rating alerts and digests: started by main.ts after listening (docs/alerts.md). */
  alerts: Alerts;
  /** List sends: started by main.ts after listening (docs/bulk.md). */
  bulk: BulkModule;
};

export function createBff(
  config: Config,
  { logger, ...logs }: Pick<LogSink, 'logger' | 'access'>,
  metrics: Metrics,
  stores: Stores,
): Bff {
  const hasher = createContactHasher(stores.contactSecret);
  const opened = openLocations(stores.db, config);
  const directory = createLocationDirectory({
    config,
    store: opened.store,
    ...(config.devHooks ? { developmentUpstream: developmentUpstreams(2_000) } : {}),
    logger,
  });
  const handlers = createHandlerSet({
    journal: stores.journal,
    reviewJournal: stores.reviewJournal,
    hasher,
    logger,
    log: logs.access,
    metrics,
  });
  const alerts = createAlerts({ config, db: stores.db, directory, users: stores.users, logger });
  // Each user's share of the key's limit: their calls through the proxy, and their lists' rows.
  const share = config.userRatePerMinute > 0 ? createUserRate(stores.db, config.userRatePerMinute) : null;
  const bulk = openBulk(
    stores.db,
    config,
    {
      senderFor: locationSender({ users: stores.users, directory, handlers }),
      recentlySent: recentContactCheck({ journal: stores.journal, hasher, capDays: config.frequencyCapDays }),
      share,
      // The same scheduling clock as alerts: the dev hook (BFF_DEV_HOOKS=1) moves both.
      clock: alerts.clock,
      logger,
    },
    logger,
  );
  const ready = upstreamProbe(config);
  const dbCheck = stores.db.prepare('SELECT 1 AS one');
  const throttle = createLoginThrottle(stores.db);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);
  app.set('trust proxy', config.trustProxy);
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  const policy: OriginPolicy = {
    allowedOrigins: new Set(config.allowedOrigins),
    publicOrigin: config.publicOrigin,
    trust: app.get('trust proxy fn'),
  };
  const cookies: CookieSettings = {
    secure: config.cookieSecure,
    publicOrigin: config.publicOrigin,
    maxAgeMs: config.session.absoluteMs,
    trust: policy.trust,
  };
  const gates = createGates({
    share,
    access: logs.access,
    metrics,
    policy,
    sessions: stores.sessions,
    cookies,
    locations: directory,
    roles: config.rolePolicy,
  });
  const proxy = createProxy({
    gates,
    handlers: (req) => handlers.forLocation(req.ctx.location!),
    targets: createReadTargets(),
  });

  app.use(gateway(gates.entry));
  app.use(answerPreflight(policy));
  app.use(locationPrefix());
  // The allow-listed proxy first: it is the hot path, and nothing below answers under /api.
  app.use(proxy);

  app.use(
    healthRoutes({
      checks: {
        database: async () => {
          await dbCheck.get();
          return 'ok';
        },
        ...(ready ? { upstream: async () => ((await ready()) ? 'ok' : 'unreachable') } : {}),
      },
      metrics: () => metricsText(metrics),
      metricsToken: config.metricsToken,
      name: (req, route) => {
        (req as GateRequest).ctx.route = route;
      },
    }),
  );

  app.use(
    authRoutes({
      users: stores.users,
      sessions: stores.sessions,
      throttle,
      devices: deviceCookies(stores.contactSecret),
      cookies,
      gates: gates.routes,
      businessName: config.businessName,
      frequencyCapDays: config.frequencyCapDays,
      rolePolicy: config.rolePolicy,
      logger,
      metrics,
    }),
  );
  app.use(
    sendHistoryRoutes({
      journal: stores.journal,
      hasher,
      gates: gates.routes,
      staleAfterMs: config.upstreamTimeoutMs + 5_000,
    }),
  );
  app.use(
    userRoutes({
      users: stores.users,
      sessions: stores.sessions,
      gates: gates.routes,
      logger,
      onRemoved: async (id) => {
        await (await opened.store()).forgetUser(id);
        directory.forget(id);
        await (await alerts.store()).forgetUser(id);
      },
    }),
  );
  app.use(
    locationRoutes({
      directory,
      store: opened.store,
      userRole: async (id) => (await stores.users.get(id))?.role ?? null,
      gates: gates.routes,
      logger,
    }),
  );
  app.use(overviewRoutes({ directory, gates: gates.routes }));
  app.use(bulkRoutes({ bulk, gates: gates.routes, logger }));
  app.use(settingsRoutes({ gates: gates.routes }));
  app.use(integrationRoutes({ gates: gates.routes }));
  app.use(googleSettingsRoutes({ gates: gates.routes }));
  app.use(replyRoutes({ journal: stores.reviewJournal, db: stores.db, gates: gates.routes }));
  app.use(alertRoutes({ alerts, directory, gates: gates.routes, logger, jobs: [alerts, bulk] }));
  app.use(staticSite(config.webDistDir));
  app.use((req, res) => {
    if (req.ctx.route === 'other') req.ctx.route = 'not-found';
    sendError(res, new AppError('not_found'));
  });
  app.use(errorHandler(logger));
  return { app, stores, handlers, locations: { ...opened, directory }, alerts, bulk };
}

/** Listens on the configured port (packages/server/serve.ts); refusals before Express are logged too. */
export function listen(
  bff: Bff,
  config: Pick<Config, 'port' | 'host' | 'portExplicit'>,
  logs: Pick<LogSink, 'logger' | 'access'>,
): Promise<Served> {
  return serve({
    handler: bff.app,
    port: config.port,
    host: config.host,
    portVariable: 'PORT',
    portExplicit: config.portExplicit,
    logger: logs.logger,
    onRefused: (refusal) =>
      logs.access.write({
        reqId: '-',
        method: refusal.method,
        path: refusal.url.split('?', 1)[0] ?? '',
        route: 'refused',
        status: refusal.status,
        ms: 0,
        user: undefined,
      }),
    timeouts: { keepAliveTimeout: 65_000, headersTimeout: 66_000, requestTimeout: 120_000 },
  });
}

/** Stops accepting, lets in-flight requests (and sends) finish, then closes idle connections. */
export function shutdown(served: Served, bff: Bff, graceMs: number): Promise<void> {
  return served.close({ graceMs, drain: () => bff.handlers.drain() });
}
