import http from 'node:http';
import { startWebhookReceiver } from '../test/support/webhook-receiver.ts';

// The stand-in webhook receiver as a process of its own, for the webhooks benchmark: its TLS work
// must not share the load generator's event loop. Prints one JSON line {origin, control}; the
// control server answers GET /arrivals (per path: each arrival's time and its event's time, then
// forgets them) and POST /hang?path=… (that path never answers).

const receiver = await startWebhookReceiver();
const control = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://control');
  if (req.method === 'POST' && url.pathname === '/hang') {
    receiver.behave(url.searchParams.get('path') ?? '', { hang: true });
    res.end('ok');
    return;
  }
  const arrivals: Record<string, [number, number][]> = {};
  for (const r of receiver.received.splice(0)) {
    const list = arrivals[r.path] ?? [];
    list.push([r.at, Date.parse((JSON.parse(r.body) as { timestamp: string }).timestamp)]);
    arrivals[r.path] = list;
  }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(arrivals));
});
control.listen(0, '127.0.0.1', () => {
  const { port } = control.address() as { port: number };
  console.log(JSON.stringify({ msg: 'listening', origin: receiver.origin, url: `http://127.0.0.1:${port}` }));
});
process.on('SIGTERM', async () => {
  await receiver.close();
  process.exit(0);
});
