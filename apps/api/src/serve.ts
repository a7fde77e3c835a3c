import { loadConfig } from './env.ts';
import { endLogs } from './logger.ts';
import { startApi } from './server.ts';

// The server process: validate the environment, start, stop cleanly on SIGTERM/SIGINT.

const loaded = loadConfig();
if (!loaded.ok) {
  process.stderr.write(`${loaded.message}\n`);
  process.exit(1);
}

// Handlers before the start: whoever reads the ready line may send SIGTERM at once, and a signal
// with no handler yet would kill the process without its graceful shutdown.
let api: Awaited<ReturnType<typeof startApi>> | undefined;
let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  const running = api;
  if (!running) process.exit(0); // still starting: nothing served, SQLite keeps each write atomic
  const { logger } = running.ctx;
  logger.info({ signal }, 'shutting down');
  running.close().then(
    () => {
      logger.info('stopped');
      void endLogs(logger).then(() => process.exit(0));
    },
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      void endLogs(logger).then(() => process.exit(1));
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

try {
  api = await startApi(loaded.config);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Could not start the API: ${message}\n`);
  process.exit(1);
}
