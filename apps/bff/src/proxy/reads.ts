import http, {
  type ClientRequest,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import https from 'node:https';
import { ERROR_CODES, fail, PROXIED_ENDPOINTS } from '@review-desk/shared';
import type { NextFunction } from 'express';
import { createProxyMiddleware, proxyEventsPlugin } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import type { Upstream } from '../env.ts';
import type { GateRequest } from '../http/gate.ts';
import type { Metrics } from '../metrics.ts';
import { interpretReply } from './answer.ts';
import { passedResponseHeaders, type UpstreamHeaders } from './headers.ts';
import { PROXY_MESSAGES } from './messages.ts';
import type { ReadEndpoint } from './read-targets.ts';

// The reads (GET /api/v1/reviews, /api/v1/analytics, /api/v1/requests[/{id}]), forwarded with http-proxy-middleware over a
// keep-alive agent. The request is validated and its query rebuilt before it gets here; this
// module owns the exchange: constructed headers, a total deadline, and an answer the browser can
// always read (the upstream's bytes when they are sound, a plain envelope when not).

type Exchange = {
  endpoint: ReadEndpoint;
  headers: OutgoingHttpHeaders;
  started: bigint;
  timer: NodeJS.Timeout | undefined;
  timedOut: boolean;
  done: boolean;
  proxyReq: ClientRequest | undefined;
  res: ServerResponse;
};

const EXCHANGE = Symbol('bff.exchange');
type WithExchange = http.IncomingMessage & { [EXCHANGE]?: Exchange };

/** Largest upstream body relayed: 100 reviews of 5,000 characters fit many times over. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';

export function createReadForwarder(deps: {
  /** The location's upstream: its URL, key and deadline. */
  upstream: Upstream;
  upstreamHeaders: UpstreamHeaders;
  logger: Logger;
  metrics: Metrics;
}) {
  const { upstream, logger, metrics } = deps;
  const keyBytes = Buffer.from(upstream.key);
  const agent =
    upstream.url.protocol === 'https:'
      ? new https.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' })
      : new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' });

  function write(ex: Exchange, status: number, body: Buffer, headers: Record<string, string>) {
    const res = ex.res;
    if (res.headersSent || res.destroyed) return;
    headers['cache-control'] = 'no-store';
    headers['content-length'] = String(body.length);
    res.writeHead(status, headers);
    res.end(body);
  }

  function settle(ex: Exchange): boolean {
    if (ex.done) return false;
    ex.done = true;
    clearTimeout(ex.timer);
    return true;
  }

  function failExchange(ex: Exchange, kind: 'timeout' | 'unreachable' | 'too_large', error?: unknown) {
    if (!settle(ex)) return;
    metrics.upstreamErrors.inc({ endpoint: ex.endpoint, kind });
    const [code, message] =
      kind === 'timeout'
        ? (['upstream_timeout', PROXY_MESSAGES.timeout] as const)
        : kind === 'too_large'
          ? (['upstream_unreadable', PROXY_MESSAGES.unreadable] as const)
          : (['upstream_unreachable', PROXY_MESSAGES.unreachable] as const);
    logger.warn(
      {
        reqId: ex.res.getHeader('x-request-id'),
        endpoint: ex.endpoint,
        kind,
        code: (error as NodeJS.ErrnoException)?.code,
      },
      'upstream failed',
    );
    write(ex, ERROR_CODES[code].status, Buffer.from(JSON.stringify(fail(code, message))), {
      'content-type': JSON_TYPE,
    });
  }

  // Exchange events, wired into http-proxy-middleware below.
  const events = {
    proxyReq(proxyReq: ClientRequest, req: http.IncomingMessage) {
      const ex = (req as WithExchange)[EXCHANGE];
      if (!ex || ex.done) {
        proxyReq.destroy();
        return;
      }
      ex.proxyReq = proxyReq;
    },
    proxyRes(proxyRes: http.IncomingMessage, req: http.IncomingMessage) {
      const ex = (req as WithExchange)[EXCHANGE];
      if (!ex || ex.done) {
        proxyRes.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      proxyRes.on('data', (chunk: Buffer) => {
        if (ex.done) return;
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          failExchange(ex, 'too_large');
          proxyRes.destroy();
          return;
        }
        chunks.push(chunk);
      });
      // Cut off mid-body (the upstream died or reset): settle the exchange now (metrics, no timer
      // left). http-proxy-middleware also drops the browser's connection, which the dashboard
      // treats as a network error and retries; half an answer is never relayed.
      proxyRes.on('close', () => {
        if (!proxyRes.complete) failExchange(ex, 'unreachable');
      });
      proxyRes.on('end', () => {
        if (!settle(ex)) return;
        const status = proxyRes.statusCode ?? 0;
        const seconds = Number(process.hrtime.bigint() - ex.started) / 1e9;
        metrics.observeUpstream(ex.endpoint, status, seconds);
        const contentType = proxyRes.headers['content-type'];
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
        const answer = interpretReply(
          { status, contentType, body },
          PROXIED_ENDPOINTS[ex.endpoint].scope,
          keyBytes,
        );
        const headers = passedResponseHeaders(proxyRes.headers, upstream.key);
        if (answer.kind === 'replace') {
          metrics.upstreamErrors.inc({ endpoint: ex.endpoint, kind: 'unreadable' });
          logger.warn(
            {
              reqId: ex.res.getHeader('x-request-id'),
              endpoint: ex.endpoint,
              upstreamStatus: status,
              reason: answer.reason,
            },
            'upstream answer replaced',
          );
          headers['content-type'] = JSON_TYPE;
        } else {
          headers['content-type'] = contentType ?? JSON_TYPE;
        }
        write(ex, answer.status, answer.body, headers);
      });
    },
    error(error: Error, req: http.IncomingMessage) {
      const ex = (req as WithExchange)[EXCHANGE];
      if (ex) failExchange(ex, ex.timedOut ? 'timeout' : 'unreachable', error);
    },
  };

  const proxy = createProxyMiddleware({
    target: upstream.url,
    changeOrigin: true,
    // Only the plugin that wires `on` below: the default error page names the upstream host and
    // URL, and the default logger formats a line for every request.
    ejectPlugins: true,
    plugins: [proxyEventsPlugin],
    selfHandleResponse: true,
    xfwd: false,
    agent,
    on: events,
  });

  return function forward(
    req: GateRequest,
    res: ServerResponse,
    endpoint: ReadEndpoint,
    canonicalUrl: string,
  ): void {
    const ex: Exchange = {
      endpoint,
      headers: deps.upstreamHeaders({
        method: 'GET',
        requestId: req.ctx.id,
        acceptLanguage: req.headers['accept-language'],
      }),
      started: process.hrtime.bigint(),
      timer: undefined,
      timedOut: false,
      done: false,
      proxyReq: undefined,
      res,
    };
    ex.timer = setTimeout(() => {
      ex.timedOut = true;
      failExchange(ex, 'timeout');
      // Abort the upstream exchange once the 504 is on its way (destroying first could cut it).
      const abort = () => ex.proxyReq?.destroy();
      if (res.writableFinished) abort();
      else {
        res.once('finish', abort);
        res.once('close', abort);
      }
    }, upstream.timeoutMs);
    // The browser went away: nothing left to answer (http-proxy-middleware aborts the exchange).
    res.once('close', () => {
      if (!ex.done) settle(ex);
    });
    (req as WithExchange)[EXCHANGE] = ex;
    req.url = canonicalUrl;
    // http-proxy-middleware builds the upstream request from req.headers: hand it ours, so not
    // one of the browser's headers can reach the upstream (the session has been read already).
    req.headers = ex.headers as IncomingHttpHeaders;
    const next: NextFunction = (error?: unknown) => {
      if (!ex.done) failExchange(ex, ex.timedOut ? 'timeout' : 'unreachable', error);
    };
    void proxy(req, res, next as (error?: unknown) => void);
  };
}
export type ReadForwarder = ReturnType<typeof createReadForwarder>;
