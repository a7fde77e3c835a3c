import { once } from 'node:events';
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

export type AccessEntry = {
  reqId: string;
  method: string;
  path: string;
  route: string;
  status: number;
  ms: number;
  user: string | undefined;
};

/** The line each send's outcome adds (the journal entry, the upstream's status or error). */
export type SendEntry = {
  reqId: string;
  user: string | undefined;
  send: string;
  outcome: string;
  upstreamStatus: number | null;
  upstreamError: string | undefined;
  ms: number;
};

/**
 * The access log: one line per request, the hottest log call by far, and the send's outcome line.
 * Their fields are fixed and never secret (ids, method, path without query, route name, status,
 * outcome, duration), so the lines are composed directly — the same JSON shape pino writes,
 * without its generic serialisation and redaction pass — and go to the same batched destination.
 */
export type AccessLog = { enabled: boolean; write(entry: AccessEntry): void; send(entry: SendEntry): void };

export type LogSink = {
  logger: Logger;
  access: AccessLog;
  /**
   * Writes what is buffered now (the ready line must not wait for a batch); resolves once it is
   * written, so what a process says next elsewhere (a message to the cluster's primary, which then
   * prints the ready line) cannot overtake it on the shared stdout.
   */
  flush(): Promise<void>;
  /**
   * Writes what is buffered and ends the stream; resolves once done, failed or after waitMs.
   * Exit through this: pino's synchronous flush at exit retries a write to a closed pipe
   * (stdout's reader gone) forever, and the process would never exit.
   */
  end(waitMs?: number): Promise<void>;
};

/**
 * Lines are written in batches of at least this many bytes (about 25 sends' lines under load, one
 * write instead of six), or every FLUSH_EVERY_MS. Below sonic-boom's 16 KB write size.
 */
const BATCH_BYTES = 12 * 1024;
const FLUSH_EVERY_MS = 200;

export function createLogger(level: string): LogSink {
  // Batched, asynchronous writes: one write per few dozen lines instead of one per request,
  // flushed at least every 200 ms so a quiet server's lines still appear promptly.
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: BATCH_BYTES,
    periodicFlush: FLUSH_EVERY_MS,
  });
  const base = { app: 'bff', pid: process.pid };
  const logger = pino({ level, base, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
  const prefix = `{"level":30,"time":`;
  const fixed = `,"app":"bff","pid":${process.pid},"reqId":`;
  const access: AccessLog = {
    enabled: logger.isLevelEnabled('info'),
    write(e) {
      destination.write(
        `${prefix}${Date.now()}${fixed}${JSON.stringify(e.reqId)},"method":${JSON.stringify(e.method)},"path":${JSON.stringify(e.path)},"route":${JSON.stringify(e.route)},"status":${e.status},"ms":${e.ms}${e.user === undefined ? '' : `,"user":${JSON.stringify(e.user)}`},"msg":"request"}\n`,
      );
    },
    send(e) {
      if (!access.enabled) return;
      destination.write(
        `${prefix}${Date.now()}${fixed}${JSON.stringify(e.reqId)}${e.user === undefined ? '' : `,"user":${JSON.stringify(e.user)}`},"send":${JSON.stringify(e.send)},"outcome":${JSON.stringify(e.outcome)},"upstreamStatus":${e.upstreamStatus === null ? 'null' : e.upstreamStatus}${e.upstreamError === undefined ? '' : `,"upstreamError":${JSON.stringify(e.upstreamError)}`},"ms":${e.ms},"msg":"send"}\n`,
      );
    },
  };
  return {
    logger,
    access,
    flush() {
      return new Promise<void>((resolve) => {
        try {
          destination.flush(() => resolve());
        } catch {
          resolve(); // already ended: nothing left to write
        }
      });
    },
    async end(waitMs = 2_000) {
      // Settles on 'close', on an 'error' (once rejects then) or after waitMs.
      const closed = once(destination, 'close', { signal: AbortSignal.timeout(waitMs) }).catch(() => {});
      try {
        destination.end();
      } catch {
        return; // already ended
      }
      await closed;
    },
  };
}
