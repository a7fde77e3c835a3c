import cluster, { type Worker } from 'node:cluster';
import { writeReadyLine } from '@review-desk/server/log';
import { exitOnStartFailure, onShutdownSignals, type Served } from '@review-desk/server/serve';
import { AggregatorRegistry } from 'prom-client';
import type { SessionEvent } from './auth/sessions.ts';
import { type Config, loadConfig } from './env.ts';
import { createLogger, type LogSink } from './log.ts';
import { createMetrics, METRICS_REPLY, METRICS_REQUEST } from './metrics.ts';
import { createBff, listen, openStores, runMaintenance, type Stores, shutdown } from './server.ts';

// Entry point. One process by default; BFF_WORKERS > 1 runs that many node:cluster workers on one
// port, with the primary doing the start-up duties (migrations, first owner, orphaned sends),
// the periodic clean-up and metrics aggregation. Sessions, throttling and the journal live in
// SQLite (WAL, busy timeout, atomic claims), so every worker sees the same state.

const MAINTENANCE_EVERY_MS = 5 * 60_000;
const SESSION_MESSAGE = 'review-desk:session';

function loadOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    exitOnStartFailure(error, 'BFF');
  }
}

async function startupDuties(stores: Stores, config: Config, sink: LogSink): Promise<void> {
  const { logger } = sink;
  if (config.publicOrigin === null) {
    logger.info(
      'PUBLIC_URL is not set: same-origin is judged from each request’s Host header; set PUBLIC_URL to the dashboard’s address to accept that origin only and refuse requests addressed to any other host',
    );
  }
  if (stores.users.count() === 0) {
    if (config.admin) {
      const owner = await stores.users.create({ ...config.admin, role: 'owner' });
      logger.info({ user: owner.id, email: owner.email }, 'first owner created from ADMIN_EMAIL');
    } else {
      logger.warn(
        'no dashboard users yet: create one with `npm run cli -w apps/bff -- user add --email you@example.com --role owner`',
      );
    }
  }
  // An in_flight entry found at start becomes unknown: no process is waiting on it any more.
  const orphaned = stores.journal.orphanAll();
  if (orphaned > 0) logger.warn({ count: orphaned }, 'in-flight sends from a previous run marked unknown');
  runMaintenance(stores, config);
}

async function runServer(config: Config, sink: LogSink, role: 'single' | 'worker'): Promise<void> {
  const { logger } = sink;
  const metrics = createMetrics();
  if (role === 'worker') {
    // Lets the primary's AggregatorRegistry collect this worker's metrics.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics.registry]);
  }
  // Workers tell each other (through the primary) about logouts and user changes, so a cached
  // session dies everywhere at once.
  const publish =
    role === 'worker' ? (event: SessionEvent) => process.send?.({ type: SESSION_MESSAGE, event }) : undefined;
  let stores: Stores;
  try {
    stores = openStores(config, publish);
  } catch (error) {
    exitOnStartFailure(error, 'BFF');
  }
  if (role === 'worker') {
    process.on('message', (message: { type?: string; event?: SessionEvent }) => {
      if (message?.type === SESSION_MESSAGE && message.event) stores.sessions.apply(message.event);
    });
  }
  if (role === 'single') await startupDuties(stores, config, sink);
  const bff = createBff(config, sink, metrics, stores);
  let listening: Served;
  try {
    // The locations' table and keys read once before serving: a key that does not open stops the start.
    await bff.locations.directory.all();
    listening = await listen(bff, config, sink);
  } catch (error) {
    stores.db.close();
    exitOnStartFailure(error, 'BFF');
  }

  let maintenance: NodeJS.Timeout | undefined;
  // Before the ready line: whoever reads it may send SIGTERM at once, and a signal with no
  // handler yet would kill the process without its graceful shutdown.
  onShutdownSignals(async (signal) => {
    logger.info({ signal }, 'shutting down');
    clearInterval(maintenance);
    await bff.bulk.stop();
    await shutdown(listening, bff, config.upstream.timeoutMs + 2_000);
    await bff.bulk.close();
    await bff.locations.close();
    stores.db.close();
    logger.info('stopped');
    await sink.end();
    process.exit(0);
  });

  if (role === 'single') {
    maintenance = setInterval(() => runMaintenance(stores, config), MAINTENANCE_EVERY_MS).unref();
    await writeReadyLine(sink, { url: listening.url, upstream: config.upstream.url.origin });
  } else {
    logger.info({ url: listening.url }, 'worker listening');
    // Written before the primary hears of it: its ready line must follow every worker's line.
    await sink.flush();
    process.send?.({ type: 'review-desk:listening', url: listening.url });
  }
  // List sends' worker, once serving (its jobs wait in the database meanwhile).
  await bff.bulk.start().catch((error: unknown) => {
    logger.error({ err: error }, 'the list send worker could not start; list sends wait until it does');
  });
}

async function runPrimary(config: Config, sink: LogSink): Promise<void> {
  const { logger } = sink;
  let stores: Stores;
  try {
    stores = openStores(config);
  } catch (error) {
    exitOnStartFailure(error, 'BFF');
  }
  await startupDuties(stores, config, sink);
  const maintenance = setInterval(() => runMaintenance(stores, config), MAINTENANCE_EVERY_MS).unref();
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  let announced = false;
  const listeningWorkers = new Set<number>();

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', async (message: { type?: string; id?: number; url?: string }) => {
      if (message?.type === 'review-desk:listening' && message.url) {
        listeningWorkers.add(worker.id);
        if (!announced && listeningWorkers.size === config.workers) {
          announced = true;
          void writeReadyLine(sink, {
            url: message.url,
            workers: config.workers,
            upstream: config.upstream.url.origin,
          });
        }
      } else if (message?.type === SESSION_MESSAGE) {
        for (const other of Object.values(cluster.workers ?? {})) {
          if (other && other.id !== worker.id && other.isConnected()) other.send(message);
        }
      } else if (message?.type === METRICS_REQUEST) {
        try {
          const body = await aggregator.clusterMetrics();
          worker.send({ type: METRICS_REPLY, id: message.id, body });
        } catch (error) {
          worker.send({ type: METRICS_REPLY, id: message.id, error: (error as Error).message });
        }
      }
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const pid = worker.process.pid;
    if (pid !== undefined) {
      const orphaned = stores.journal.orphanProcess(pid);
      if (orphaned > 0)
        logger.warn({ pid, count: orphaned }, 'in-flight sends of a stopped worker marked unknown');
    }
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        stores.db.close();
        logger.info('stopped');
        void sink.end().then(() => process.exit(0));
      }
      return;
    }
    if (!listeningWorkers.has(worker.id)) {
      // Died before it ever served: restarting would loop on the same fault.
      logger.fatal({ pid, code, signal }, 'worker failed to start');
      void sink.end().then(() => process.exit(1));
      return;
    }
    listeningWorkers.delete(worker.id);
    logger.error({ pid, code, signal }, 'worker stopped unexpectedly; starting a new one');
    // What happened to the worker is written before its replacement can say anything.
    void sink.flush().then(fork);
  });

  for (let i = 0; i < config.workers; i++) fork();

  onShutdownSignals((signal) => {
    stopping = true;
    clearInterval(maintenance);
    logger.info({ signal }, 'shutting down');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
}

const config = loadOrExit();
const sink = createLogger(config.logLevel);
process.on('uncaughtException', (error) => {
  sink.logger.fatal({ err: error }, 'uncaught exception');
  void sink.end().then(() => process.exit(1));
});

if (cluster.isWorker) await runServer(config, sink, 'worker');
else if (config.workers > 1) await runPrimary(config, sink);
else await runServer(config, sink, 'single');
