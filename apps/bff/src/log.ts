import pino, { type Logger } from 'pino';

// JSON logs on stdout through an asynchronous destination (log calls do not wait on the pipe).
// Redaction is a second line of defence: the code never logs the key, cookies, passwords or
// contacts, and should one slip into a logged object under a usual name, it is censored.

export const REDACT_PATHS = [
  'key',
  'apiKey',
  'password',
  'token',
  'cookie',
  'authorization',
  'customerPhone',
  'customerEmail',
  '*.key',
  '*.apiKey',
  '*.password',
  '*.token',
  '*.cookie',
  '*.authorization',
  '*["x-api-key"]',
  '*.customerPhone',
  '*.customerEmail',
  'headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["set-cookie"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'upstream.key',
];

export type LogSink = { logger: Logger; flush(): void };

export function createLogger(level: string): LogSink {
  const destination = pino.destination({ dest: 1, sync: false });
  const logger = pino(
    {
      level,
      base: { app: 'bff', pid: process.pid },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    destination,
  );
  return {
    logger,
    flush() {
      try {
        destination.flushSync();
      } catch {
        // stdout already closed: nothing left to write to
      }
    },
  };
}
