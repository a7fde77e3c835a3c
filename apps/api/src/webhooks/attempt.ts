import { Agent, request } from 'node:https';
import { WEBHOOK_TIMEOUT_MS } from '@review-desk/shared';
import { checkedLookup, literalRefusal } from './address.ts';

// One attempt of one delivery: a POST of the event's body with its signed headers to the
// endpoint's https URL, answered within WEBHOOK_TIMEOUT_MS or counted as failed. Every new
// connection checks the address it goes to (address.ts); connections are kept alive per receiver,
// at most MAX_AGENTS receivers at once. Redirects are not followed (Standard Webhooks: a 3xx is a
// failure). The answer's body is read up to a few KB and dropped.

export type AttemptResult =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string; gone?: boolean };

export type AttemptOptions = {
  allowPrivate: boolean;
  /** Extra trust anchors (PEM) for the receivers' certificates: tests' own authority. */
  ca?: string | undefined;
  timeoutMs?: number;
};

const ANSWER_BYTES_READ = 4096;
const MAX_AGENTS = 500;
const agents = new Map<string, Agent>();

/** The keep-alive pool of one receiver (its origin), the oldest dropped beyond MAX_AGENTS. */
function agentFor(url: URL, options: AttemptOptions): Agent {
  const key = `${url.origin} ${options.allowPrivate} ${options.ca ? 'ca' : ''}`;
  let agent = agents.get(key);
  if (agent) return agent;
  agent = new Agent({
    keepAlive: true,
    maxSockets: 8,
    timeout: 30_000,
    lookup: checkedLookup(options.allowPrivate),
    ...(options.ca ? { ca: options.ca } : {}),
  });
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldest, pool] = agents.entries().next().value as [string, Agent];
    pool.destroy();
    agents.delete(oldest);
  }
  return agent;
}

export async function attemptDelivery(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: AttemptOptions,
): Promise<AttemptResult> {
  const target = new URL(url);
  if (target.protocol !== 'https:')
    return { ok: false, status: null, error: 'Only https addresses are used.' };
  const refused = literalRefusal(target, options.allowPrivate);
  if (refused) return { ok: false, status: null, error: refused };
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const done = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'ReviewDesk-Webhooks/1',
        },
        agent: agentFor(target, options),
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_BYTES_READ) res.destroy();
        });
        const status = res.statusCode ?? 0;
        const answer = (): AttemptResult =>
          status >= 200 && status < 300
            ? { ok: true, status }
            : { ok: false, status, error: `The endpoint answered ${status}.`, gone: status === 410 };
        res.on('end', () => done(answer()));
        res.on('close', () => done(answer()));
        res.on('error', () => done(answer()));
      },
    );
    const timer = setTimeout(() => {
      done({ ok: false, status: null, error: `No answer within ${timeoutMs / 1000} s.` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) =>
      done({ ok: false, status: null, error: `Could not deliver: ${error.message}` }),
    );
    req.end(body);
  });
}
