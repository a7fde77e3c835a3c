import { loadConfig } from './env.ts';
import { endLogs } from './logger.ts';
import { startApi } from './server.ts';

// The server process: validate the environment, start, stop cleanly on SIGTERM/SIGINT.

const loaded = loadConfig();
if (!loaded.ok) {
  process.stderr.write(`${loaded.message}\n`);
  process.exit(1);
}

try {
  const api = await startApi(loaded.config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    api.ctx.logger.info({ signal }, 'shutting down');
    api.close().then(
      () => {
        api.ctx.logger.info('stopped');
        void endLogs(api.ctx.logger).then(() => process.exit(0));
      },
      (error: unknown) => {
        api.ctx.logger.error({ err: error }, 'shutdown failed');
        void endLogs(api.ctx.logger).then(() => process.exit(1));
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Could not start the API: ${message}\n`);
  process.exit(1);
}
