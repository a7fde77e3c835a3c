import http from 'node:http';
import { listenLocal } from './http.ts';

// A load balancer for the replica suites: each request goes to the next target in turn, as a
// round-robin balancer in front of N replicas would send it. Requests pass byte for byte (the Host
// header included, so the replicas judge same-origin from the balancer's address, as behind a real
// one); `served` counts what each target answered. With `skipRefused`, a target that refuses the
// connection (its process is gone) is passed over for the next, as a balancer's passive health
// check does: only a refused connection, which no replica ever read, is tried again elsewhere.

export type RoundRobin = {
  url: string;
  /** Requests sent to each target, in the targets' order. */
  served: number[];
  /** Requests passed over a target that refused the connection, per target. */
  refused: number[];
  close(): Promise<void>;
};

export type RoundRobinOptions = { skipRefused?: boolean };

export async function startRoundRobin(
  targets: readonly string[],
  options: RoundRobinOptions = {},
): Promise<RoundRobin> {
  if (targets.length === 0) throw new Error('a round-robin needs at least one target');
  const served = targets.map(() => 0);
  const refused = targets.map(() => 0);
  // Keep-alive, but a connection idle for a second is closed rather than reused, well inside the
  // replicas' own Keep-Alive timeout (5 s): reusing one a replica is just closing would reset a
  // request it never read, a 502 no replica caused.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 1_000 });
  let next = 0;

  const unreachable = (res: http.ServerResponse) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('replica unreachable');
  };

  /** Forwards to target `index`; `body` given: buffered, so a refused connection can go on to the next. */
  const forward = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    index: number,
    body: Buffer | null,
    triesLeft: number,
  ) => {
    served[index] = (served[index] ?? 0) + 1;
    const target = new URL(req.url ?? '/', targets[index]);
    const upstream = http.request(target, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (body !== null && error.code === 'ECONNREFUSED' && triesLeft > 1 && !res.headersSent) {
        served[index] = (served[index] ?? 0) - 1;
        refused[index] = (refused[index] ?? 0) + 1;
        forward(req, res, (index + 1) % targets.length, body, triesLeft - 1);
        return;
      }
      unreachable(res);
    });
    if (body === null) req.pipe(upstream);
    else upstream.end(body);
  };

  const server = http.createServer((req, res) => {
    const index = next;
    next = (next + 1) % targets.length;
    if (!options.skipRefused) return forward(req, res, index, null, 1);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, res, index, Buffer.concat(chunks), targets.length));
    req.on('error', () => unreachable(res));
  });
  const url = await listenLocal(server);
  return {
    url,
    served,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
