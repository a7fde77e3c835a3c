import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError, errorHandler, sendError } from '@review-desk/server/errors';
import { BFF_PATHS, fail, ok } from '@review-desk/shared';
import express, { type Express } from 'express';
import type { CookieSettings } from './auth/cookies.ts';
import { authRoutes } from './auth/routes.ts';
import { createSessionStore, type SessionEvent, type SessionStore } from './auth/sessions.ts';
import { createLoginThrottle } from './auth/throttle.ts';
import { createUserStore, type UserStore } from './auth/users.ts';
import type { Config } from './env.ts';
import { createGates } from './gates.ts';
import { gateway } from './http/gate.ts';
import { answerPreflight, type OriginPolicy } from './http/origin.ts';
import { createContactHasher } from './journal/contact.ts';
import { createJournal, type Journal } from './journal/journal.ts';
import { sendHistoryRoutes } from './journal/routes.ts';
import type { LogSink } from './log.ts';
import { type Metrics, metricsText } from './metrics.ts';
import { createUpstreamHeaders } from './proxy/headers.ts';
import { createReadTargets } from './proxy/read-targets.ts';
import { createReadForwarder } from './proxy/reads.ts';
import { createProxy } from './proxy/routes.ts';
import { createSendHandler, type SendHandler } from './proxy/send.ts';
import { staticSite } from './static.ts';
import { type Db, metaValue, openDatabase } from './store/db.ts';
import { userRoutes } from './users/routes.ts';

// Composition: the stores, the proxy, and the middleware in the order a request meets them —
// the entry gates (request id, security headers, safe target, public Host, cross-origin; see
// gates.ts) → an allowed origin's preflight → the allow-listed proxy (allow-list → the route's
// gates → forward) → health → auth → the BFF's own API → the dashboard → 404 → error envelope.

export type Stores = {
  db: Db;
  users: UserStore;
  sessions: SessionStore;
  journal: Journal;
};

export function openStores(
  config: Pick<Config, 'databasePath' | 'session'>,
  publish?: (event: SessionEvent) => void,
): Stores {
  const db = openDatabase(config.databasePath);
  return {
    db,
    users: createUserStore(db),
    sessions: createSessionStore(db, config.session, publish),
    journal: createJournal(db),
  };
}

/** Periodic clean-up: expired sessions, stale throttle windows, forgotten keys, old history. */
export function runMaintenance(stores: Stores, config: Config): void {
  stores.sessions.sweep();
  createLoginThrottle(stores.db).sweep();
  stores.journal.orphanStale(config.upstream.timeoutMs + 5_000);
  stores.journal.cleanup(config.idempotencyRetentionMs, config.sendHistoryMs);
}

/** Whether the upstream answers HTTP at all (any status below 500), cached briefly. */
function upstreamProbe(config: Config) {
  let cached: { at: number; ok: boolean } | null = null;
  const probeUrl = new URL(`${config.upstream.url.href.replace(/\/+$/, '')}/healthz`);
  return async (): Promise<boolean> => {
    if (cached && Date.now() - cached.at < 2_000) return cached.ok;
    const ok = await new Promise<boolean>((resolve) => {
      const transport = probeUrl.protocol === 'https:' ? https : http;
      const request = transport.request(probeUrl, { method: 'GET', timeout: 2_000, agent: false }, (res) => {
        res.resume();
        resolve((res.statusCode ?? 500) < 500);
      });
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => resolve(false));
      request.end();
    });
    cached = { at: Date.now(), ok };
    return ok;
  };
}

export type Bff = {
  /** The server's request listener. */
  app: Express;
  stores: Stores;
  send: SendHandler;
};

export function createBff(
  config: Config,
  logs: Pick<LogSink, 'logger' | 'access'>,
  metrics: Metrics,
  stores = openStores(config),
): Bff {
  const { logger } = logs;
  const secret = metaValue(stores.db, 'contact_hash_secret');
  if (!secret) throw new Error('database has no contact hash secret');
  const hasher = createContactHasher(secret);
  const upstreamHeaders = createUpstreamHeaders(config.upstream);
  const reads = createReadForwarder({ config, upstreamHeaders, logger, metrics });
  const send = createSendHandler({
    config,
    journal: stores.journal,
    hasher,
    upstreamHeaders,
    log: logs.access,
    metrics,
  });
  const ready = upstreamProbe(config);
  const dbCheck = stores.db.prepare('SELECT 1 AS one');

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
    access: logs.access,
    metrics,
    policy,
    sessions: stores.sessions,
    cookies,
  });
  const proxy = createProxy({ gates, reads, targets: createReadTargets(), send });

  app.use(gateway(gates.entry));
  app.use(answerPreflight(policy));
  // The allow-listed proxy first: it is the hot path, and nothing below answers under /api.
  app.use(proxy);

  app.get(BFF_PATHS.healthz, (req, res) => {
    req.ctx.route = 'healthz';
    res.setHeader('cache-control', 'no-store');
    res.json(ok({ status: 'ok' }));
  });
  app.get(BFF_PATHS.readyz, async (req, res) => {
    req.ctx.route = 'readyz';
    res.setHeader('cache-control', 'no-store');
    let database = 'ok';
    try {
      dbCheck.get();
    } catch {
      database = 'unavailable';
    }
    const upstream = (await ready()) ? 'ok' : 'unreachable';
    const checks = { database, upstream };
    if (database === 'ok' && upstream === 'ok') res.json(ok({ status: 'ready', checks }));
    else
      res
        .status(503)
        .json({ ...fail('not_ready', `Not ready: database ${database}, upstream ${upstream}.`), checks });
  });
  app.get(BFF_PATHS.metrics, async (req, res) => {
    req.ctx.route = 'metrics';
    const { type, body } = await metricsText(metrics);
    res.setHeader('cache-control', 'no-store');
    res.type(type).send(body);
  });

  app.use(
    authRoutes({
      users: stores.users,
      sessions: stores.sessions,
      throttle: createLoginThrottle(stores.db),
      cookies,
      gates: gates.routes,
      businessName: config.businessName,
      frequencyCapDays: config.frequencyCapDays,
      logger,
      metrics,
    }),
  );
  app.use(
    sendHistoryRoutes({
      journal: stores.journal,
      hasher,
      gates: gates.routes,
      staleAfterMs: config.upstream.timeoutMs + 5_000,
    }),
  );
  app.use(userRoutes({ users: stores.users, sessions: stores.sessions, gates: gates.routes, logger }));
  app.use(staticSite(config.webDistDir));
  app.use((req, res) => {
    if (req.ctx.route === 'other') req.ctx.route = 'not-found';
    sendError(res, new AppError('not_found'));
  });
  app.use(errorHandler(logger));
  return { app, stores, send };
}

export type Listening = { server: http.Server; url: string };

export function listen(
  handler: http.RequestListener,
  config: Pick<Config, 'port' | 'host'>,
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = http.createServer(
      { keepAliveTimeout: 65_000, headersTimeout: 66_000, requestTimeout: 120_000 },
      handler,
    );
    server.on('clientError', refuseUnparsable);
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({ server, url: `http://${host}:${address.port}` });
    });
  });
}

/**
 * Requests Node's HTTP parser refuses (headers over 16 KB, a malformed request line or header)
 * never reach Express; without this, Node answers them with an empty body. They get the
 * envelope like every other failure — except a HEAD, whose answer has no body, and a connection
 * already answering an earlier request, which is only closed (writing would corrupt that answer).
 */
function refuseUnparsable(
  error: NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: Buffer },
  socket: Duplex & { _httpMessage?: { headersSent?: boolean } | null },
): void {
  if (
    !socket.writable ||
    error.code === 'ECONNRESET' ||
    error.bytesParsed === undefined ||
    socket._httpMessage?.headersSent
  ) {
    socket.destroy();
    return;
  }
  const [status, code] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? (['431 Request Header Fields Too Large', 'headers_too_large'] as const)
      : (['400 Bad Request', 'malformed_request'] as const);
  const body = JSON.stringify(fail(code));
  const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\n` +
      `x-content-type-options: nosniff\r\nconnection: close\r\n\r\n${head ? '' : body}`,
  );
}

/** Stops accepting, lets in-flight requests (and sends) finish, then closes idle connections. */
export async function shutdown(listening: Listening, bff: Bff, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => listening.server.close(() => resolve()));
  listening.server.closeIdleConnections();
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
  await Promise.race([Promise.all([closed, bff.send.drain()]), deadline]);
  listening.server.closeAllConnections();
}
