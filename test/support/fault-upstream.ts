import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { fail } from '@review-desk/shared';
import { listenLocal } from './http.ts';

// A scriptable stand-in for the Review Collection API, run inside the test process: it records
// every request exactly as it arrived (headers and body bytes) and answers as the test says —
// normally, slowly, never, with garbage, by dropping or resetting the connection, with a body far
// too large, or by relaying to a real API and then misbehaving (see `faults`). A behaviour can be
// set for every route or for one route, so a test can break one endpoint and watch the others.

/**
 * The only headers the BFF sends upstream on a read (besides the agent's `connection`): the
 * browser's `accept-language` and nothing else of the browser's; a send adds its body's.
 */
export const BFF_READ_HEADERS = [
  'accept',
  'accept-encoding',
  'accept-language',
  'host',
  'user-agent',
  'x-api-key',
  'x-request-id',
] as const;
export const BFF_SEND_HEADERS = [...BFF_READ_HEADERS, 'content-length', 'content-type', 'origin'] as const;

export type Recorded = {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
};

export type Behaviour = (req: Recorded, res: ServerResponse, socket: Socket) => void;

export type FakeUpstream = {
  url: string;
  calls: Recorded[];
  /** Requests to a path (query ignored). */
  count(path: string): number;
  /** Answer with this from now on (null: the default answers). */
  behave(behaviour: Behaviour | null): void;
  /** Answer requests to this path (query ignored) with this, ahead of `behave` (null: stop). */
  behaveOn(path: string, behaviour: Behaviour | null): void;
  /** Requests answered by a behaviour other than the default one (faults injected). */
  readonly injected: number;
  reset(): void;
  close(): Promise<void>;
};

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

let nextRequest = 1;

/** What a healthy service answers to a request: a list, analytics, a sent request. */
export function healthyAnswer(req: Recorded): { status: number; body: unknown } {
  const path = req.url.split('?')[0];
  if (req.method === 'GET' && path === '/api/v1/reviews') {
    const params = new URLSearchParams(req.url.split('?')[1] ?? '');
    return {
      status: 200,
      body: {
        success: true,
        data: {
          page: Number(params.get('page') ?? 1),
          limit: Number(params.get('limit') ?? 20),
          total: 1,
          reviews: [{ id: 'r1', rating: 5, response_status: 'pending' }],
        },
      },
    };
  }
  if (req.method === 'GET' && path === '/api/v1/analytics') {
    return { status: 200, body: { success: true, data: { requests: { completed: 3, reviewLeft: 2 } } } };
  }
  if (req.method === 'POST' && path === '/api/v1/requests/send') {
    const body = JSON.parse(req.body.toString('utf8') || '{}') as { channel?: string };
    const id = `req_${nextRequest++}`;
    return {
      status: 200,
      body: {
        success: true,
        data: {
          requestId: id,
          status: 'sent',
          channel: body.channel ?? 'sms',
          reviewLink: `https://reviews.example/r/${id}`,
        },
      },
    };
  }
  if (path === '/healthz') return { status: 200, body: { success: true, data: { status: 'ok' } } };
  return { status: 404, body: fail('not_found') };
}

/** What a healthy service answers: a list, analytics, a sent request. */
export const defaultBehaviour: Behaviour = (req, res) => {
  const { status, body } = healthyAnswer(req);
  json(res, status, body);
};

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const calls: Recorded[] = [];
  let behaviour: Behaviour | null = null;
  const routes = new Map<string, Behaviour>();
  const sockets = new Set<Socket>();
  let injected = 0;

  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      };
      // Health probes are not part of what the tests count, and route behaviours leave them be.
      if (recorded.url === '/healthz') return (behaviour ?? defaultBehaviour)(recorded, res, req.socket);
      calls.push(recorded);
      const chosen = routes.get(recorded.url.split('?')[0] ?? '') ?? behaviour;
      if (chosen && chosen !== defaultBehaviour) injected++;
      (chosen ?? defaultBehaviour)(recorded, res, req.socket);
    });
  });
  // Faults write into sockets the BFF has already given up on: that is not the test's failure.
  server.on('clientError', (_error, socket) => socket.destroy());
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  const url = await listenLocal(server);

  return {
    url,
    calls,
    count: (path) => calls.filter((c) => c.url.split('?')[0] === path).length,
    behave(next) {
      behaviour = next;
    },
    behaveOn(path, next) {
      if (next) routes.set(path, next);
      else routes.delete(path);
    },
    get injected() {
      return injected;
    },
    reset() {
      calls.length = 0;
      behaviour = null;
      routes.clear();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Behaviours the tests use. */
export const behaviours = {
  hang: (): Behaviour => () => {
    // never answers
  },
  garbage:
    (status = 200, contentType = 'text/html'): Behaviour =>
    (_req, res) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end('<html><body>Bad gateway at upstream-lb-7.internal</body></html>');
    },
  status:
    (status: number, body: unknown, headers: Record<string, string> = {}): Behaviour =>
    (_req, res) =>
      json(res, status, body, headers),
  /** Reads the request, then drops the connection without answering. */
  drop: (): Behaviour => (_req, _res, socket) => {
    socket.destroy();
  },
  delay:
    (ms: number, then: Behaviour = defaultBehaviour): Behaviour =>
    (req, res, socket) => {
      setTimeout(() => then(req, res, socket), ms);
    },
};

const MB = 1024 * 1024;
const FILLER = Buffer.alloc(MB, 0x20);

/** Writes `bytes` of a JSON-looking body in 1 MB pieces, as fast as the reader takes them. */
function stream(res: ServerResponse, bytes: number, head: string) {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes) });
  let left = bytes - head.length;
  res.write(head);
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const piece = left >= MB ? FILLER : FILLER.subarray(0, left);
      left -= piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/**
 * The faults a real upstream (or whatever stands in front of it) can produce, by name. Each is a
 * Behaviour; the tests decide what the BFF must answer to each.
 */
export const faults = {
  /** Answers normally after `ms`. */
  slow: (ms: number, then: Behaviour = defaultBehaviour): Behaviour => behaviours.delay(ms, then),
  /** Never answers, and keeps the connection open. */
  hang: (): Behaviour => behaviours.hang(),
  /** Sends the status line and headers at once, then the body a byte every `everyMs`. */
  drip:
    (everyMs = 200): Behaviour =>
    (_req, res) => {
      const body = '{"success":true,"data":{"page":1,"limit":20,"total":0,"reviews":[]}}';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      let i = 0;
      const timer = setInterval(() => {
        if (res.destroyed || i >= body.length) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write(body[i++]);
      }, everyMs);
      res.on('close', () => clearInterval(timer));
    },
  /** Reads the whole request, then resets the connection (TCP RST): the request may have been acted on. */
  resetAfterBody: (): Behaviour => (_req, _res, socket) => {
    socket.resetAndDestroy();
  },
  /** Reads the whole request, then closes the connection without a word. */
  closeAfterBody: (): Behaviour => behaviours.drop(),
  /** Starts a 200 answer, then resets the connection half-way through the body. */
  cutMidBody: (): Behaviour => (_req, res, socket) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4000' });
    res.write('{"success":true,"data":{"page":1,"limit":20,"total":1,"reviews":[');
    setTimeout(() => socket.resetAndDestroy(), 20);
  },
  /** The key's request limit, with the wait in seconds. */
  rateLimited:
    (retryAfterSeconds = 30): Behaviour =>
    (_req, res) =>
      json(
        res,
        429,
        {
          ...fail(
            'rate_limited',
            `Request limit of this key reached; retry after ${retryAfterSeconds} seconds.`,
          ),
        },
        {
          'retry-after': String(retryAfterSeconds),
          'ratelimit-limit': '120',
          'ratelimit-remaining': '0',
          'ratelimit-reset': String(retryAfterSeconds),
        },
      ),
  /** The service's own 500 envelope. */
  serverError: (): Behaviour => behaviours.status(500, fail('internal')),
  /** The service's own 503 envelope. */
  unavailable: (): Behaviour => behaviours.status(503, fail('unavailable'), { 'retry-after': '2' }),
  /** A 503 page from something in front of the service (a load balancer). */
  gatewayPage: (status = 503): Behaviour => behaviours.garbage(status, 'text/html'),
  /** 200, JSON content type, a body that does not parse. */
  malformedJson: (): Behaviour => (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"success":true,"data":{"page":1,"reviews":[{"id":"r1",');
  },
  /** 200 with a body of `megabytes` MB (declared in Content-Length), streamed as fast as it is read. */
  hugeBody:
    (megabytes = 50): Behaviour =>
    (_req, res) =>
      stream(res, megabytes * MB, '{"success":true,"data":{"padding":"'),
  /** A perfectly good envelope, labelled text/plain. */
  wrongContentType: (): Behaviour => (req, res) => {
    const { status, body } = healthyAnswer(req);
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(JSON.stringify(body));
  },
  /** 200 and valid JSON, but not the envelope. */
  notEnvelope:
    (body: unknown = { reviews: [], total: 0 }): Behaviour =>
    (_req, res) =>
      json(res, 200, body),
  /**
   * Relays the request to a real service, then applies `after` to its answer: `deliver` passes it
   * on, `drop` resets the connection (the service acted, the caller never hears), `hang` keeps the
   * answer back for ever. `before: 'drop' | 'hang'` fails the same way without relaying: the
   * service never sees the request.
   */
  relay:
    (
      target: string,
      options: { before?: 'drop' | 'hang'; after?: 'deliver' | 'drop' | 'hang'; onRelayed?: () => void } = {},
    ): Behaviour =>
    (req, res, socket) => {
      if (options.before === 'drop') return socket.resetAndDestroy();
      if (options.before === 'hang') return;
      const url = new URL(req.url, target);
      const headers = { ...req.headers, host: url.host };
      const out = http.request(url, { method: req.method, headers, agent: false }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          options.onRelayed?.();
          const after = options.after ?? 'deliver';
          if (after === 'drop') return socket.resetAndDestroy();
          if (after === 'hang') return;
          const body = Buffer.concat(chunks);
          const passed: Record<string, string> = { 'content-length': String(body.length) };
          for (const name of ['content-type', 'retry-after']) {
            const value = answer.headers[name];
            if (typeof value === 'string') passed[name] = value;
          }
          res.writeHead(answer.statusCode ?? 502, passed);
          res.end(body);
        });
      });
      out.on('error', () => socket.destroy());
      out.end(req.body);
    },
};
