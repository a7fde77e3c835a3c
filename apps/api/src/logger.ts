import { once } from 'node:events';
import { KEY_QUERY_PARAMS } from '@review-desk/shared';
import pino from 'pino';

// Structured JSON logs on stdout. Keys, cookies and link tokens never appear: headers are not
// logged, and URLs are logged with secrets replaced (see redactUrl).

export type Logger = pino.Logger;

const destinations = new WeakMap<Logger, ReturnType<typeof pino.destination>>();

export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false });
  const logger = pino(
    {
      level,
      base: { service: 'api' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          '*.apiKey',
          '*.key',
        ],
        censor: '[redacted]',
      },
    },
    // Asynchronous writes: a log line never holds up an answer. Call endLogs before exiting.
    destination,
  );
  destinations.set(logger, destination);
  return logger;
}

/**
 * Writes what is still buffered and ends the log stream; resolves once that is done, once it
 * failed, or after waitMs. Exit through this rather than pino's synchronous flush at exit: that
 * retries a write to a closed pipe (stdout's reader gone) forever, and the process never exits.
 */
export async function endLogs(logger: Logger, waitMs = 2_000): Promise<void> {
  const destination = destinations.get(logger);
  if (!destination) return;
  // Settles on 'close', on an 'error' (once rejects then) or after waitMs.
  const closed = once(destination, 'close', { signal: AbortSignal.timeout(waitMs) }).catch(() => {});
  try {
    destination.end();
  } catch {
    return; // already ended
  }
  await closed;
}

const SECRET_PARAMS = new Set<string>([...KEY_QUERY_PARAMS, 'to']);

/**
 * A URL fit for a log line: the review-link token is replaced, and so is the value of every
 * query parameter that may carry a key or a contact (or that looks like a key).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(/^\/r\/[^/?#]+/, '/r/[token]');
  if (q === -1) return path;
  const params = new URLSearchParams(url.slice(q + 1));
  const out: string[] = [];
  for (const [name, value] of params) {
    const secret =
      SECRET_PARAMS.has(name) || SECRET_PARAMS.has(name.toLowerCase()) || /rd_live_/i.test(value);
    out.push(`${encodeURIComponent(name)}=${secret ? '[redacted]' : encodeURIComponent(value)}`);
  }
  return `${path}?${out.join('&')}`;
}
