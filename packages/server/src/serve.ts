import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@review-desk/shared';
import { fail } from '@review-desk/shared';
import { AppError, sendError } from './errors.ts';
import type { Logger } from './log.ts';
import { StartupError } from './startup-error.ts';

// Serving HTTP the same way in both services: create and listen (a busy default port moves on to
// the next free one, a busy chosen port stops the start with one line), requests Node would
// answer by itself — unparsable, no Host, an Expect it does not know — answered with the envelope
// and reported like any refusal, and a graceful close.

/** A request refused before the service's own handler saw it. */
export type Refusal = { method: string; url: string; status: number; code: ErrorCode };

export type ServeOptions = {
  /** The service's request listener. */
  handler: http.RequestListener;
  port: number;
  host: string;
  /** The setting that chose the port, named when it is busy. */
  portVariable: string;
  /**
   * The port was chosen by the operator: a busy one stops the start. When false (the built-in
   * default), a busy port moves on to the next free one, as developer tools do.
   */
  portExplicit: boolean;
  /** How many ports after a busy default are tried (default 20). */
  portAttempts?: number;
  /** Reports what is refused before the handler (the service logs it like any other refusal). */
  onRefused?: (refusal: Refusal) => void;
  logger?: Logger;
  timeouts?: { keepAliveTimeout?: number; headersTimeout?: number; requestTimeout?: number };
};

export type Served = {
  server: http.Server;
  /** The URL really served (the port actually bound). */
  url: string;
  port: number;
  /**
   * Stops accepting, lets in-flight requests (and `drain`) finish for up to `graceMs`, then cuts
   * what is left. Resolves when the server is closed.
   */
  close(options?: { graceMs?: number; drain?: () => Promise<unknown> }): Promise<void>;
};

/**
 * Requests Node's parser would answer by itself with an empty body: HTTP/1.1 without Host (400),
 * an Expect other than 100-continue (417). They get the envelope instead.
 */
export function requestRefusal(req: IncomingMessage): ErrorCode | null {
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
    return 'host_missing';
  return null;
}

function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  code: ErrorCode,
  onRefused: ServeOptions['onRefused'],
): void {
  // The body of a refused request is not read: the connection is not reused.
  res.setHeader('connection', 'close');
  res.setHeader('x-content-type-options', 'nosniff');
  sendError(res, new AppError(code));
  onRefused?.({ method: req.method ?? '-', url: req.url ?? '', status: res.statusCode, code });
}

/**
 * Requests the parser refuses (headers over 16 KB, a malformed request line or header) never
 * reach a handler; without this, Node answers them with an empty body. They get the envelope —
 * except a HEAD, whose answer has no body, and a connection already answering an earlier
 * request, which is only closed (writing would corrupt that answer).
 */
function refuseUnparsable(
  error: NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: Buffer },
  socket: Duplex & { _httpMessage?: { headersSent?: boolean } | null },
  onRefused: ServeOptions['onRefused'],
): void {
  if (
    !socket.writable ||
    error.code === 'ECONNRESET' ||
    error.bytesParsed === undefined ||
    socket._httpMessage?.headersSent
  ) {
    socket.destroy();
    return;
  }
  const [status, code] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? (['431 Request Header Fields Too Large', 'headers_too_large'] as const)
      : (['400 Bad Request', 'malformed_request'] as const);
  const body = JSON.stringify(fail(code));
  const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\n` +
      `x-content-type-options: nosniff\r\nconnection: close\r\n\r\n${head ? '' : body}`,
  );
  onRefused?.({ method: '-', url: '', status: Number(status.slice(0, 3)), code });
}

function listenOnce(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export async function serve(options: ServeOptions): Promise<Served> {
  const { handler, onRefused } = options;
  const server = http.createServer(
    {
      // Answered here with the envelope, not by Node with an empty 400.
      requireHostHeader: false,
      keepAliveTimeout: options.timeouts?.keepAliveTimeout ?? 5_000,
      ...(options.timeouts?.headersTimeout ? { headersTimeout: options.timeouts.headersTimeout } : {}),
      ...(options.timeouts?.requestTimeout ? { requestTimeout: options.timeouts.requestTimeout } : {}),
    },
    (req, res) => {
      const refusal = requestRefusal(req);
      if (refusal !== null) refuse(req, res, refusal, onRefused);
      else handler(req, res);
    },
  );
  // With a listener, Node leaves an unknown Expect to us instead of answering 417 by itself.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    refuse(req, res, 'expectation_failed', onRefused),
  );
  server.on('clientError', (error, socket) => refuseUnparsable(error, socket, onRefused));

  const attempts = options.portExplicit || options.port === 0 ? 1 : (options.portAttempts ?? 20);
  for (let i = 0; ; i++) {
    const port = options.port + i;
    try {
      await listenOnce(server, port, options.host);
      if (i > 0)
        options.logger?.warn(
          { port: options.port, serving: port },
          `port ${options.port} is in use; serving on ${port}`,
        );
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const last = i + 1 >= attempts || port >= 65535;
      if (code === 'EADDRINUSE' && !last) continue;
      throw startupErrorFor(error, options, port);
    }
  }

  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://${host}:${address.port}`,
    port: address.port,
    close({ graceMs = 3_000, drain } = {}) {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
          timer.unref();
        });
        await Promise.race([Promise.all([closed, drain?.()]), deadline]);
        clearTimeout(timer);
        // In-flight requests had their moment; what is left is cut.
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

/** The one line for a chosen port that is taken. */
export function portInUse(port: number, variable: string): string {
  return `Port ${port} is in use (${variable}=${port}): stop what uses it, or set ${variable} to another port.`;
}

function startupErrorFor(error: unknown, options: ServeOptions, port: number): StartupError {
  const code = (error as NodeJS.ErrnoException).code;
  const variable = options.portVariable;
  const where = `${options.host}:${port}`;
  if (code === 'EADDRINUSE') {
    const message = options.portExplicit
      ? portInUse(port, variable)
      : `Ports ${options.port}–${port} on ${options.host} are all in use: set ${variable} to a free port.`;
    return new StartupError(message, { variable, cause: error });
  }
  if (code === 'EACCES')
    return new StartupError(`Not allowed to listen on ${where} (${variable}): choose a port above 1023.`, {
      variable,
      cause: error,
    });
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new StartupError(`Cannot listen on ${where}: the address is not one of this machine's (HOST).`, {
      variable: 'HOST',
      cause: error,
    });
  return new StartupError(`Cannot listen on ${where}: ${(error as Error).message}`, {
    variable,
    cause: error,
  });
}

/**
 * Installs the SIGTERM/SIGINT handler before the service starts: whoever reads the ready line
 * may send a signal at once, and a signal with no handler yet would kill the process without
 * its graceful shutdown. The handler runs once.
 */
export function onShutdownSignals(handler: (signal: NodeJS.Signals) => void): void {
  let received = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (received) return;
      received = true;
      handler(signal);
    });
  }
}

/**
 * Ends a start that failed: a StartupError is one plain line on stderr (no stack, no JSON), any
 * other error a line naming the service; exit code 1.
 */
export function exitOnStartFailure(error: unknown, service: string): never {
  const line =
    error instanceof StartupError
      ? error.message
      : `Could not start the ${service}: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${line}\n`);
  process.exit(1);
}
