import { exitOnStartFailure, onShutdownSignals } from '@review-desk/server/serve';
import { type Config, loadConfig } from './env.ts';
import { type RunningApi, startApi } from './server.ts';

// The server process: read the configuration, start, stop cleanly on SIGTERM/SIGINT. A start
// that cannot happen (a bad variable, a busy chosen port, a data folder it cannot write) ends
// with one plain line naming what to change.

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  exitOnStartFailure(error, 'API');
}

let api: RunningApi | undefined;
onShutdownSignals((signal) => {
  const running = api;
  if (!running) process.exit(0); // still starting: nothing served, SQLite keeps each write atomic
  const { logger } = running.ctx;
  logger.info({ signal }, 'shutting down');
  running.close().then(
    () => {
      logger.info('stopped');
      void running.sink.end().then(() => process.exit(0));
    },
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      void running.sink.end().then(() => process.exit(1));
    },
  );
});

try {
  api = await startApi(config);
} catch (error) {
  exitOnStartFailure(error, 'API');
}
