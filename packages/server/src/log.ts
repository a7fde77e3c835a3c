import { once } from 'node:events';
import { API_KEY_PREFIX, KEY_QUERY_PARAMS } from '@review-desk/shared';
import pino from 'pino';

// Structured JSON logs on stdout, through an asynchronous destination: a log call never waits on
// the pipe. Secrets stay out: the services log no headers, bodies or contacts, URLs are logged
// through redactUrl, and should a secret slip into a logged object under a usual name, pino's
// redaction censors it (a second line of defence).

export type Logger = pino.Logger;
export type LogDestination = ReturnType<typeof pino.destination>;

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
  'res.headers["set-cookie"]',
  'upstream.key',
];

export type LogSink = {
  logger: Logger;
  /** Where the lines go: a service may write lines it composes itself (the BFF's access log). */
  destination: LogDestination;
  /** The fields every line starts with after level and time, as JSON text (`,"service":…,"pid":…`). */
  baseJson: string;
  /**
   * Writes what is buffered now (a ready line must not wait for a batch); resolves once written,
   * so what the process says next elsewhere cannot overtake it on a shared stdout.
   */
  flush(): Promise<void>;
  /**
   * Writes what is buffered and ends the stream; resolves once done, failed or after waitMs.
   * Exit through this: pino's synchronous flush at exit retries a write to a closed pipe (stdout's
   * reader gone) forever, and the process would never exit.
   */
  end(waitMs?: number): Promise<void>;
};

export type LogOptions = {
  service: 'api' | 'bff';
  level: string;
  /**
   * Batch lines into writes of at least this many bytes, flushed at least every 200 ms (a busy
   * server writes once per few dozen lines instead of once per line). 0: write each line.
   */
  batchBytes?: number;
};

export function createLogSink(options: LogOptions): LogSink {
  const batched = (options.batchBytes ?? 0) > 0;
  const destination = pino.destination({
    dest: 1,
    sync: false,
    ...(batched ? { minLength: options.batchBytes, periodicFlush: 200 } : {}),
  });
  const base = { service: options.service, pid: process.pid };
  const logger = pino(
    { level: options.level, base, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    destination,
  );
  return {
    logger,
    destination,
    baseJson: `,"service":${JSON.stringify(options.service)},"pid":${process.pid}`,
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

/**
 * The ready line tools wait for (`{"msg":"listening","url":…}`), written whatever LOG_LEVEL is,
 * and flushed at once.
 */
export function writeReadyLine(sink: LogSink, fields: Record<string, unknown>): Promise<void> {
  if (sink.logger.isLevelEnabled('info')) sink.logger.info(fields, 'listening');
  else {
    const own = JSON.stringify({ ...fields, msg: 'listening' }).slice(1);
    sink.destination.write(`{"level":30,"time":${Date.now()}${sink.baseJson},${own}\n`);
  }
  return sink.flush();
}

// --- URLs in log lines --------------------------------------------------------------------------

const REDACTED = '[redacted]';
/** Query parameters whose value is a secret or a contact, whatever it looks like. */
const SECRET_PARAMS = new Set<string>(
  [...KEY_QUERY_PARAMS, 'to', 'contact', 'phone', 'email', 'customerPhone', 'customerEmail'].map((p) =>
    p.toLowerCase(),
  ),
);
const KEY_MARK = new RegExp(API_KEY_PREFIX, 'i');

/** Whether text (raw or percent-decoded) holds something that looks like one of our API keys. */
export function holdsKey(text: string): boolean {
  if (KEY_MARK.test(text)) return true;
  if (!text.includes('%')) return false;
  try {
    return KEY_MARK.test(decodeURIComponent(text));
  } catch {
    return false;
  }
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** A path pattern whose matches are replaced (e.g. the review link's token: /^\/r\/[^/]+/ → '/r/[token]'). */
export type PathRedaction = { pattern: RegExp; replacement: string };

/**
 * A URL fit for a log line. Anything holding an API key (`rd_live_…`, also percent-encoded) is
 * replaced wherever it is — a path segment, a query parameter's name (`?rd_live_…` with no `=`)
 * or value; so is the value of every parameter that carries a key or a contact by its name; and
 * each of `paths` (a service's own secrets in paths). The rest is kept as it came.
 */
export function redactUrl(url: string, paths: readonly PathRedaction[] = []): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  for (const { pattern, replacement } of paths) path = path.replace(pattern, replacement);
  if (holdsKey(path)) {
    path = path
      .split('/')
      .map((segment) => (holdsKey(segment) ? REDACTED : segment))
      .join('/');
  }
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      if (holdsKey(name)) return REDACTED;
      if (eq === -1) return part;
      const value = part.slice(eq + 1);
      return SECRET_PARAMS.has(decodedName(name)) || holdsKey(value) ? `${name}=${REDACTED}` : part;
    })
    .join('&');
  return `${path}?${query}`;
}
