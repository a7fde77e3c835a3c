import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { fail, ok } from '@review-desk/shared';
import { type RequestHandler, Router } from 'express';
import { AppError, methodNotAllowed, sendError } from './errors.ts';

// Liveness, readiness and metrics, the same in both services. /healthz says the process
// answers; /readyz runs the service's checks (its database, its upstream); /metrics is
// Prometheus text for loopback callers, or for whoever presents the METRICS_TOKEN.

/** A readiness check: 'ok', or a word for what is wrong ('unavailable', 'unreachable'). */
export type ReadinessCheck = () => string | Promise<string>;

export type HealthOptions = {
  checks: Record<string, ReadinessCheck>;
  metrics: () => Promise<{ type: string; body: string }>;
  metricsToken: string | undefined;
  /** Names the route for the service's access log and metrics. */
  name?: (req: IncomingMessage, route: 'healthz' | 'readyz' | 'metrics') => void;
  /** Answer OPTIONS with 204 and Allow (the service's convention) instead of 405. */
  answerOptions?: boolean;
};

const digest = (value: string) => createHash('sha256').update(value).digest();

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * Whether a request may read /metrics: a loopback peer that came through no proxy (a proxy on
 * the same host adds X-Forwarded-For or Forwarded), or `Authorization: Bearer <token>`.
 */
export function metricsAllowed(req: IncomingMessage, token: string | undefined): boolean {
  const proxied = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  if (isLoopback(req.socket.remoteAddress) && !proxied) return true;
  if (token === undefined) return false;
  const presented = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '')?.[1];
  // Compared as digests: equal length, constant time.
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

export function healthRoutes(options: HealthOptions): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const named =
    (route: 'healthz' | 'readyz' | 'metrics'): RequestHandler =>
    (req, res, next) => {
      options.name?.(req, route);
      res.setHeader('cache-control', 'no-store');
      next();
    };

  router.get('/healthz', named('healthz'), (_req, res) => {
    res.json(ok({ status: 'ok' }));
  });

  router.get('/readyz', named('readyz'), async (_req, res) => {
    const checks: Record<string, string> = {};
    for (const [name, check] of Object.entries(options.checks)) {
      try {
        checks[name] = await check();
      } catch {
        checks[name] = 'unavailable';
      }
    }
    const failing = Object.values(checks).some((state) => state !== 'ok');
    if (!failing) {
      res.json(ok({ status: 'ready', checks }));
      return;
    }
    const summary = Object.entries(checks)
      .map(([name, state]) => `${name} ${state}`)
      .join(', ');
    res.status(503).json({ ...fail('not_ready', `Not ready: ${summary}.`), checks });
  });

  router.get('/metrics', named('metrics'), async (req, res) => {
    if (!metricsAllowed(req, options.metricsToken)) {
      sendError(res, new AppError('metrics_refused'));
      return;
    }
    const { type, body } = await options.metrics();
    res.type(type).send(body);
  });

  const allow = methodNotAllowed(['GET'], { answerOptions: options.answerOptions ?? false });
  for (const path of ['/healthz', '/readyz', '/metrics']) router.all(path, allow);
  return router;
}
