import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A scriptable stand-in for the Review Collection API, run inside the test process: it records
// every request exactly as it arrived (headers and body bytes) and answers as the test says —
// normally, slowly, never, with garbage, or by dropping the connection.

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

/** What a healthy service answers: a list, analytics, a sent request. */
export const defaultBehaviour: Behaviour = (req, res) => {
  const path = req.url.split('?')[0];
  if (req.method === 'GET' && path === '/api/v1/reviews') {
    const params = new URLSearchParams(req.url.split('?')[1] ?? '');
    json(res, 200, {
      success: true,
      data: {
        page: Number(params.get('page') ?? 1),
        limit: Number(params.get('limit') ?? 20),
        total: 1,
        reviews: [{ id: 'r1', rating: 5, response_status: 'pending' }],
      },
    });
  } else if (req.method === 'GET' && path === '/api/v1/analytics') {
    json(res, 200, { success: true, data: { requests: { completed: 3, reviewLeft: 2 } } });
  } else if (req.method === 'POST' && path === '/api/v1/requests/send') {
    const body = JSON.parse(req.body.toString('utf8') || '{}') as { channel?: string };
    const id = `req_${nextRequest++}`;
    json(res, 200, {
      success: true,
      data: {
        requestId: id,
        status: 'sent',
        channel: body.channel ?? 'sms',
        reviewLink: `https://reviews.example/r/${id}`,
      },
    });
  } else if (path === '/healthz') {
    json(res, 200, { success: true, data: { status: 'ok' } });
  } else {
    json(res, 404, { success: false, error: 'Not found.' });
  }
};

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const calls: Recorded[] = [];
  let behaviour: Behaviour | null = null;
  const sockets = new Set<Socket>();

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
      // Health probes are not part of what the tests count.
      if (recorded.url !== '/healthz') calls.push(recorded);
      (behaviour ?? defaultBehaviour)(recorded, res, req.socket);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    count: (path) => calls.filter((c) => c.url.split('?')[0] === path).length,
    behave(next) {
      behaviour = next;
    },
    reset() {
      calls.length = 0;
      behaviour = null;
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
