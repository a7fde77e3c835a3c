import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AppError } from '@review-desk/server/errors';
import { type InstanceLease, startInstanceLease } from '@review-desk/server/jobs/instances';
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
// the periodic clean-up and metrics aggregation. Sessions, throttling and the journal live in the
// BFF's database (SQLite, or PostgreSQL shared by N replicas), so every worker and replica sees
// the same state.
//
// Each running BFF (a single process, or a primary with its workers) holds an instance lease in
// the database; its in-flight sends carry the instance id. A BFF whose lease runs out (or whose
// process on this host is gone) stopped: the others turn its in-flight sends, and only those, into
// `unknown`. So a replica's restart never touches another replica's live sends.

const MAINTENANCE_EVERY_MS = 5 * 60_000;
/** How often stopped instances are looked for (a third of the lease). */
const INSTANCE_SWEEP_MS = 5_000;
const SESSION_MESSAGE = 'review-desk:session';
/** How a primary hands its instance id to the workers it forks (not a setting). */
const INSTANCE_VARIABLE = 'REVIEW_DESK_BFF_INSTANCE';

function loadOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    exitOnStartFailure(error, 'BFF');
  }
}

/** Settles the in-flight sends of BFF instances that stopped, then forgets those instances. */
async function sweepStoppedInstances(stores: Stores, lease: InstanceLease, sink: LogSink): Promise<void> {
  const stopped = await lease.expiredInstances();
  if (stopped.length === 0) return;
  const orphaned = await stores.journal.orphanInstances(stopped);
  if (orphaned > 0)
    sink.logger.warn(
      { count: orphaned, instances: stopped.length },
      'in-flight sends of a stopped BFF marked unknown',
    );
  await lease.forget(stopped);
}

/** The sweep and the periodic clean-up, on timers that never keep the process alive. */
function startTimers(stores: Stores, lease: InstanceLease, config: Config, sink: LogSink): () => void {
  const report = (what: string) => (error: unknown) => sink.logger.error({ err: error }, `${what} failed`);
  const sweep = setInterval(
    () => void sweepStoppedInstances(stores, lease, sink).catch(report('instance sweep')),
    INSTANCE_SWEEP_MS,
  ).unref();
  const maintenance = setInterval(
    () => void runMaintenance(stores, config).catch(report('maintenance')),
    MAINTENANCE_EVERY_MS,
  ).unref();
  return () => {
    clearInterval(sweep);
    clearInterval(maintenance);
  };
}

async function startupDuties(
  stores: Stores,
  lease: InstanceLease,
  config: Config,
  sink: LogSink,
): Promise<void> {
  const { logger } = sink;
  if (config.publicOrigin === null) {
    logger.info(
      'PUBLIC_URL is not set: same-origin is judged from each request’s Host header; set PUBLIC_URL to the dashboard’s address to accept that origin only and refuse requests addressed to any other host',
    );
  }
  if ((await stores.users.count()) === 0) {
    if (config.admin) {
      // Replicas starting together on one database may both find no users: one creates the owner.
      const owner = await stores.users.create({ ...config.admin, role: 'owner' }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'user_exists') return null;
        throw error;
      });
      if (owner) logger.info({ user: owner.id, email: owner.email }, 'first owner created from ADMIN_EMAIL');
    } else {
      logger.warn(
        'no dashboard users yet: create one with `npm run cli -w apps/bff -- user add --email you@example.com --role owner`',
      );
    }
  }
  // An in_flight entry of a BFF that stopped becomes unknown: no process is waiting on it any more.
  // Entries of an older version carry no instance: nobody can be waiting on those either.
  const unowned = await stores.journal.orphanUnowned();
  if (unowned > 0) logger.warn({ count: unowned }, 'in-flight sends from a previous run marked unknown');
  await sweepStoppedInstances(stores, lease, sink);
  await runMaintenance(stores, config);
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
  let lease: InstanceLease | null = null;
  try {
    const inherited = process.env[INSTANCE_VARIABLE];
    if (role === 'worker' && inherited) {
      stores = await openStores(config, inherited, publish);
    } else {
      const instanceId = randomUUID();
      stores = await openStores(config, instanceId, publish);
      lease = await startInstanceLease({ db: stores.db, id: instanceId, logger });
    }
    await stores.sessions.listen();
  } catch (error) {
    exitOnStartFailure(error, 'BFF');
  }
  if (role === 'worker') {
    process.on('message', (message: { type?: string; event?: SessionEvent }) => {
      if (message?.type === SESSION_MESSAGE && message.event) stores.sessions.apply(message.event);
    });
  }
  if (lease) await startupDuties(stores, lease, config, sink);
  const bff = createBff(config, sink, metrics, stores);
  let listening: Served;
  try {
    // The locations' table and keys read once before serving: a key that does not open, a location
    // without an upstream, no location at all, or a real upstream beside the dev hooks stops the start.
    await bff.locations.directory.ready();
    listening = await listen(bff, config, sink);
    bff.alerts.setDashboardOrigin(listening.url);
    await bff.alerts.start();
    await bff.bulk.start();
  } catch (error) {
    await lease?.stop();
    await stores.db.close();
    exitOnStartFailure(error, 'BFF');
  }

  let stopTimers = () => {};
  // Before the ready line: whoever reads it may send SIGTERM at once, and a signal with no
  // handler yet would kill the process without its graceful shutdown.
  onShutdownSignals(async (signal) => {
    logger.info({ signal }, 'shutting down');
    stopTimers();
    await bff.bulk.stop();
    await shutdown(listening, bff, config.upstreamTimeoutMs + 2_000);
    await bff.alerts.stop();
    // Every send of this instance has its outcome now: ending the lease leaves nothing to settle.
    await lease?.stop();
    await stores.db.close();
    logger.info('stopped');
    await sink.end();
    process.exit(0);
  });

  if (lease) {
    stopTimers = startTimers(stores, lease, config, sink);
    await writeReadyLine(sink, { url: listening.url, upstream: upstreamShown(config) });
  } else {
    logger.info({ url: listening.url }, 'worker listening');
    // Written before the primary hears of it: its ready line must follow every worker's line.
    await sink.flush();
    process.send?.({ type: 'review-desk:listening', url: listening.url });
  }
}

async function runPrimary(config: Config, sink: LogSink): Promise<void> {
  const { logger } = sink;
  let stores: Stores;
  let lease: InstanceLease;
  const instanceId = randomUUID();
  try {
    stores = await openStores(config, instanceId);
    lease = await startInstanceLease({ db: stores.db, id: instanceId, logger });
  } catch (error) {
    exitOnStartFailure(error, 'BFF');
  }
  await startupDuties(stores, lease, config, sink);
  const stopTimers = startTimers(stores, lease, config, sink);
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  let announced = false;
  const listeningWorkers = new Set<number>();

  const fork = (): Worker => {
    const worker = cluster.fork({ [INSTANCE_VARIABLE]: instanceId });
    worker.on('message', async (message: { type?: string; id?: number; url?: string }) => {
      if (message?.type === 'review-desk:listening' && message.url) {
        listeningWorkers.add(worker.id);
        if (!announced && listeningWorkers.size === config.workers) {
          announced = true;
          void writeReadyLine(sink, {
            url: message.url,
            workers: config.workers,
            upstream: upstreamShown(config),
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
    const settled =
      pid === undefined
        ? Promise.resolve()
        : stores.journal.orphanProcess(pid).then(
            (orphaned) => {
              if (orphaned > 0)
                logger.warn({ pid, count: orphaned }, 'in-flight sends of a stopped worker marked unknown');
            },
            (error) => logger.error({ err: error, pid }, 'settling a stopped worker’s sends failed'),
          );
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        void settled
          .then(() => lease.stop())
          .then(() => stores.db.close())
          .finally(() => {
            logger.info('stopped');
            void sink.end().then(() => process.exit(0));
          });
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
    stopTimers();
    logger.info({ signal }, 'shutting down');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
}

/** The ready line's upstream: UPSTREAM_URL's origin, or the stored locations' own. */
const upstreamShown = (config: Config) => config.upstream?.url.origin ?? 'each stored location’s own';

const config = loadOrExit();
const sink = createLogger(config.logLevel);
process.on('uncaughtException', (error) => {
  sink.logger.fatal({ err: error }, 'uncaught exception');
  void sink.end().then(() => process.exit(1));
});

if (cluster.isWorker) await runServer(config, sink, 'worker');
else if (config.workers > 1) await runPrimary(config, sink);
else await runServer(config, sink, 'single');
