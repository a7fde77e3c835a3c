import http from 'node:http';
import { moveDevClock } from './dev-clock.ts';
import { listenLocal } from './http.ts';

// Time moved in lockstep for list-send system tests. The real API (DEV_CLOCK=1) and the real BFF
// (BFF_DEV_HOOKS=1) each run a clock that POST /dev/clock moves; this relay sits between them,
// passes every request through (its Origin renamed to the API's) and notes when each send reached the API on the API's
// clock. To move time it holds new requests, lets those in flight finish, moves both clocks by the
// same step and lets the held ones go: no request is ever in flight while the clocks move, so the
// time noted for each request is the time the API judged it by.

export type SeenSend = {
  /** When the request reached the API, on the API's (moved) clock. */
  at: number;
  email: string;
  status: number;
  /** The 429's Retry-After in seconds, when it had one. */
  retryAfter: number | null;
};

export type Lockstep = {
  url: string;
  sends: SeenSend[];
  /** How far both clocks have been moved. */
  readonly movedMs: number;
  /** When (real time) the last request reached the relay. */
  readonly lastRequestAt: number;
  /** Moves the API's and the BFF's clocks forward by `ms`, with no request in flight. */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
};

/** A relay to `apiUrl`; `bffUrl()` names the BFF whose clock moves with the API's. */
export async function startLockstep(apiUrl: string, bffUrl: () => string): Promise<Lockstep> {
  const target = new URL(apiUrl);
  const sends: SeenSend[] = [];
  let movedMs = 0;
  let lastRequestAt = 0;
  let inFlight = 0;
  let held: PromiseWithResolvers<void> | null = null;
  let drained: PromiseWithResolvers<void> | null = null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let relayOrigin = '';

  const server = http.createServer(async (req, res) => {
    while (held) await held.promise;
    inFlight++;
    lastRequestAt = Date.now();
    const at = lastRequestAt + movedMs;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = { ...req.headers, host: target.host };
    delete headers.connection;
    // The BFF names the service it calls as the Origin (docs/api.md): here that is the relay.
    if (headers.origin === relayOrigin) headers.origin = target.origin;
    const finish = () => {
      inFlight--;
      if (inFlight === 0) drained?.resolve();
    };
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers, agent },
      (answer) => {
        const status = answer.statusCode ?? 502;
        if (req.url?.startsWith('/api/v1/requests/send')) {
          const retryAfter = answer.headers['retry-after'];
          sends.push({
            at,
            email: String((JSON.parse(body.toString() || '{}') as { customerEmail?: string }).customerEmail),
            status,
            retryAfter: retryAfter === undefined ? null : Number(retryAfter),
          });
        }
        const out = { ...answer.headers };
        delete out.connection;
        delete out['keep-alive'];
        res.writeHead(status, out);
        answer.pipe(res);
        answer.on('end', finish);
        answer.on('error', finish);
      },
    );
    upstream.on('error', () => {
      finish();
      res.destroy();
    });
    upstream.end(body);
  });
  relayOrigin = await listenLocal(server);

  return {
    url: relayOrigin,
    sends,
    get movedMs() {
      return movedMs;
    },
    get lastRequestAt() {
      return lastRequestAt;
    },
    async advance(ms) {
      const hold = Promise.withResolvers<void>();
      held = hold;
      try {
        if (inFlight > 0) {
          drained = Promise.withResolvers<void>();
          await drained.promise;
          drained = null;
        }
        await moveDevClock(apiUrl, { advanceMs: ms });
        await moveDevClock(bffUrl(), { advanceMs: ms });
        movedMs += ms;
      } finally {
        held = null;
        hold.resolve();
      }
    },
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
