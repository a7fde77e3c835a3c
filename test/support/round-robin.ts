import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A load balancer for the replica suites: each request goes to the next target in turn, as a
// round-robin balancer in front of N replicas would send it. Requests pass byte for byte (the Host
// header included, so the replicas judge same-origin from the balancer's address, as behind a real
// one); `served` counts what each target answered.

export type RoundRobin = {
  url: string;
  /** Requests sent to each target, in the targets' order. */
  served: number[];
  close(): Promise<void>;
};

export async function startRoundRobin(targets: readonly string[]): Promise<RoundRobin> {
  if (targets.length === 0) throw new Error('a round-robin needs at least one target');
  const served = targets.map(() => 0);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const server = http.createServer((req, res) => {
    const index = next;
    next = (next + 1) % targets.length;
    served[index] = (served[index] ?? 0) + 1;
    const target = new URL(req.url ?? '/', targets[index]);
    const upstream = http.request(target, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('replica unreachable');
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
