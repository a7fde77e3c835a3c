import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';

// A stand-in for a system that subscribes to the service's webhooks, run inside the test process:
// a real HTTPS server (its certificate in ./tls, which the service under test is told to trust)
// that records every request — path, Standard Webhooks headers, raw body — and answers per path
// as told: a list of statuses in turn (then 200), a hang (the service times out), or 410 Gone.
// `verify` checks a recorded request with the `standardwebhooks` package, as a receiver would.

const here = path.dirname(fileURLToPath(import.meta.url));
export const RECEIVER_CA_FILE = path.join(here, 'tls', 'receiver-cert.pem');
export const RECEIVER_CA = readFileSync(RECEIVER_CA_FILE, 'utf8');
const KEY = readFileSync(path.join(here, 'tls', 'receiver-key.pem'), 'utf8');

export type Received = {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** When it arrived (system clock). */
  at: number;
};

export type Behaviour = { statuses?: number[]; hang?: boolean; delayMs?: number };

export type WebhookReceiver = {
  /** https://127.0.0.1:<port> */
  origin: string;
  url(pathname: string): string;
  received: Received[];
  at(pathname: string): Received[];
  /** Resolves once `count` requests have arrived at `pathname` (an event, not a timer). */
  arrived(pathname: string, count: number): Promise<Received[]>;
  behave(pathname: string, behaviour: Behaviour): void;
  /** The event as the package verifies it with `secret` (throws when it does not verify). */
  verify(message: Received, secret: string): unknown;
  /** Answers every request left hanging (with 200) and forgets their behaviour. */
  release(): void;
  close(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const hanging = new Set<ServerResponse>();
  const waiting = new Set<() => void>();
  const sockets = new Set<Duplex>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const pathname = req.url ?? '/';
    received.push({
      path: pathname,
      id: String(req.headers['webhook-id'] ?? ''),
      timestamp: String(req.headers['webhook-timestamp'] ?? ''),
      signature: String(req.headers['webhook-signature'] ?? ''),
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    });
    for (const wake of waiting) wake();
    const behaviour = behaviours.get(pathname) ?? {};
    if (behaviour.hang) {
      hanging.add(res);
      return;
    }
    // The stand-in answers as late as it was told to (a slow receiver in the benchmark).
    if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    const status = behaviour.statuses?.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
  };

  const server: Server = createServer({ key: KEY, cert: RECEIVER_CA }, (req, res) => void handle(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const origin = `https://127.0.0.1:${port}`;

  return {
    origin,
    url: (pathname) => `${origin}${pathname}`,
    received,
    at: (pathname) => received.filter((r) => r.path === pathname),
    arrived(pathname, count) {
      const now = () => received.filter((r) => r.path === pathname);
      if (now().length >= count) return Promise.resolve(now());
      return new Promise((resolve) => {
        const wake = () => {
          if (now().length < count) return;
          waiting.delete(wake);
          resolve(now());
        };
        waiting.add(wake);
      });
    },
    behave: (pathname, behaviour) => behaviours.set(pathname, { ...behaviour }),
    verify(message, secret) {
      return new Webhook(secret).verify(message.body, {
        'webhook-id': message.id,
        'webhook-timestamp': message.timestamp,
        'webhook-signature': message.signature,
      });
    },
    release() {
      behaviours.clear();
      for (const res of hanging) res.writeHead(200).end('ok');
      hanging.clear();
    },
    async close() {
      for (const res of hanging) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
