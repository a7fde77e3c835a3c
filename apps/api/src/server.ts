import type { AddressInfo } from 'node:net';
import { API_PREFIX, fail } from '@review-desk/shared';
import express from 'express';
import type { AppContext } from './context.ts';
import { createDeliveryProvider } from './delivery/index.ts';
import type { DeliveryProvider } from './delivery/provider.ts';
import { seedDemo } from './domain/demo.ts';
import { createKeyUsage } from './domain/keys.ts';
import { createRateLimiter } from './domain/rate-limiter.ts';
import { recoverInterruptedSends } from './domain/requests.ts';
import type { Config } from './env.ts';
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
import { createLogger, type Logger } from './logger.ts';
import { apiRoutes } from './routes/api.ts';
import { devOutboxRoutes } from './routes/dev-outbox.ts';
import { docsRoutes } from './routes/docs.ts';
import { healthRoutes } from './routes/health.ts';
import { reviewPageRoutes } from './routes/review-page.ts';
import { openStore, type Store } from './store/index.ts';

// Composition: configuration → store, delivery, logger → the Express app, mounted in the order
// of a request's story.

export type ApiOptions = {
  store?: Store;
  delivery?: DeliveryProvider;
  logger?: Logger;
  /** Clock for tests (ms since the epoch). */
  now?: () => number;
};

export function buildApp(config: Config, options: ApiOptions = {}) {
  const store = options.store ?? openStore(config.databasePath);
  const ctx: AppContext = {
    config,
    store,
    delivery: options.delivery ?? createDeliveryProvider(config),
    logger: options.logger ?? createLogger(config.logLevel),
    rateLimiter: createRateLimiter(),
    keyUsage: createKeyUsage(store),
    now: options.now ?? Date.now,
    site: { publicOrigin: config.publicOrigin ?? `http://${config.host}:${config.port}` },
  };

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', false); // every route reads the raw query through shared queryRecord

  app.use(requestId());
  app.use(requestLogging(ctx));
  app.use(securityHeaders(ctx));
  app.use(API_PREFIX, cors(ctx), credentials(ctx), rateLimit(ctx));
  app.use(apiRoutes(ctx));
  app.use(docsRoutes(ctx));
  app.use(reviewPageRoutes(ctx));
  app.use(healthRoutes(ctx));
  if (config.devOutbox) app.use(devOutboxRoutes(ctx));
  app.use(notFound);
  app.use(errorHandler(ctx.logger));
  return { app, ctx };
}

export type RunningApi = {
  url: string;
  ctx: AppContext;
  close(): Promise<void>;
};

/** Opens the store, seeds the demo if asked, listens, and logs the `listening` line. */
export async function startApi(config: Config, options: ApiOptions = {}): Promise<RunningApi> {
  const { app, ctx } = buildApp(config, options);
  const recovered = recoverInterruptedSends(ctx.store, ctx.now());
  if (recovered > 0) ctx.logger.warn({ recovered }, 'requests interrupted during delivery marked failed');

  // Demo data before the ready line: whoever waits for `listening` finds it in place.
  if (config.seedDemo) {
    const seeded = seedDemo(ctx.store, { keyFile: config.demoKeyFile, now: ctx.now() });
    ctx.logger.info(
      { business: seeded.business.slug, created: seeded.created, keyCreated: seeded.keyCreated },
      seeded.created ? 'demo data seeded' : 'demo data already present',
    );
  }

  const server = app.listen(config.port, config.host);
  // Requests Node's HTTP parser refuses never reach Express; they still get the envelope —
  // except a HEAD, whose answer has no body, and a connection already answering an earlier
  // request, which is only closed (writing would corrupt that answer).
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (
      !socket.writable ||
      (error as { bytesParsed?: number }).bytesParsed === undefined ||
      inFlight?.headersSent
    ) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify(fail(tooLarge ? 'headers_too_large' : 'malformed_request'));
    const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${head ? '' : body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  ctx.site.publicOrigin = config.publicOrigin ?? url;
  // A client keeping a connection open must not hold a graceful shutdown for long.
  server.keepAliveTimeout = 5_000;
  const usageTimer = setInterval(() => ctx.keyUsage.flush(), 30_000).unref();

  // The ready signal tools wait for (`{"msg":"listening","url":…}`), written whatever LOG_LEVEL is.
  const ready = { url, publicOrigin: ctx.site.publicOrigin, delivery: ctx.delivery.name };
  if (ctx.logger.isLevelEnabled('info')) ctx.logger.info(ready, 'listening');
  else
    process.stdout.write(
      `${JSON.stringify({ level: 30, time: Date.now(), service: 'api', ...ready, msg: 'listening' })}\n`,
    );

  let closing: Promise<void> | undefined;
  return {
    url,
    ctx,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // In-flight requests get a moment to finish; then their sockets are cut.
          setTimeout(() => server.closeAllConnections(), 3_000).unref();
        });
        clearInterval(usageTimer);
        ctx.keyUsage.flush();
        await ctx.delivery.close();
        if (!options.store) ctx.store.close({ checkpoint: true });
      })();
      return closing;
    },
  };
}
