import http from 'node:http';

// The floor for the proxy benchmark: a bare node:http keep-alive reverse proxy with no routing,
// validation, sessions or logging. It forwards every request to TARGET and streams the answer
// back; it adds the API key and Origin as the BFF does, so the upstream accepts the calls.
// Run as its own process (so its CPU time can be read from /proc):
//   TARGET=http://127.0.0.1:4000 API_KEY=… PORT=0 npx node bench/bare-proxy.ts
// It logs one line {"msg":"listening","url":…} once it accepts connections; SIGTERM stops it.

export function createBareProxy(options: { target: string; apiKey: string; origin?: string }) {
  const target = new URL(options.target);
  const origin = options.origin ?? target.origin;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, 'x-api-key': options.apiKey, origin };
    delete headers.cookie;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"success":false,"error":"upstream unreachable"}');
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  return { server, agent };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { server, agent } = createBareProxy({
    target: process.env.TARGET ?? 'http://127.0.0.1:4000',
    apiKey: process.env.API_KEY ?? '',
    origin: process.env.ORIGIN || undefined,
  });
  server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(
      `${JSON.stringify({ level: 30, msg: 'listening', url: `http://127.0.0.1:${port}` })}\n`,
    );
  });
  process.on('SIGTERM', () => {
    agent.destroy();
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
