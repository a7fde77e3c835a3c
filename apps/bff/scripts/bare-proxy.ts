import http from 'node:http';

// A bare node:http keep-alive reverse proxy (no routing, validation, sessions or logging): the
// floor the BFF's added latency is compared with in measure-latency.ts. Run as its own process:
// TARGET=http://… API_KEY=… PORT=0 node bare-proxy.ts  → logs {"msg":"listening","url":…}.

const target = new URL(process.env.TARGET ?? 'http://127.0.0.1:4000');
const apiKey = process.env.API_KEY ?? '';
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const server = http.createServer((req, res) => {
  const headers = { ...req.headers, host: target.host, 'x-api-key': apiKey, origin: target.origin };
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
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(
    `${JSON.stringify({ level: 30, msg: 'listening', url: `http://127.0.0.1:${port}` })}\n`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
