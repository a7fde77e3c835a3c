import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';

// The floor for the widget benchmark: a bare node:http keep-alive server that answers every GET
// with the same bytes and as many headers as the service sends with a widget's data (a request
// id among them), with no routing, cache look-up, conditional check or metrics. Run as its own
// process, so its CPU time can be read from /proc:
//   BODY_FILE=… HEADERS=16 PORT=0 npx node bench/bare-bytes.ts
// It logs one line {"msg":"listening","url":…} once it accepts connections; SIGTERM stops it.

const body = readFileSync(process.env.BODY_FILE ?? '');
const headers = Number(process.env.HEADERS ?? '16');
const server = http.createServer((_req, res) => {
  res.setHeader('x-request-id', randomUUID());
  for (let i = 1; i < headers - 1; i++) res.setHeader(`x-header-${i}`, 'a value of a usual length');
  res.setHeader('content-length', body.length);
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? '0'), process.env.HOST ?? '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${address.port}` }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
