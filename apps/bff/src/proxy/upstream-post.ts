import http, { type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';

// The send's upstream exchange. It is not a pass-through (see docs/decisions/0008-bff-send-forwarding.md):
// it runs to completion even if the browser goes away, so the journal always learns the outcome,
// and it reports whether the request can have left (a connection never made sent nothing).

export type PostResult =
  | { kind: 'reply'; status: number; headers: http.IncomingHttpHeaders; body: Buffer }
  | { kind: 'error'; reason: 'timeout' | 'unreachable' | 'connection_lost' | 'too_large'; error: Error };

const MAX_REPLY_BYTES = 1024 * 1024;

/** Errors raised before a connection exists: the request cannot have reached the upstream. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

// Keep-alive, but a connection is reused only while it is fresh: one idle for more than a second
// is closed rather than reused (and Node's agent retires a socket a second before the server's own
// Keep-Alive timeout), so a send is never written onto a connection the upstream is just closing
// — the race that would turn an ordinary send into "outcome unknown". A new TCP connection per
// send cost the BFF and the upstream ~0.3-0.5 ms of CPU each (docs/bff.md, "Performance").
const REUSE_IDLE_MS = 1_000;
const agentOptions = { keepAlive: true, timeout: REUSE_IDLE_MS, maxSockets: 256, maxFreeSockets: 64 };
const agents = {
  'http:': new http.Agent(agentOptions),
  'https:': new https.Agent(agentOptions),
};

/** `method`: POST (a send), or a review's PATCH and DELETE, which go out the same way. */
export function postUpstream(
  url: URL,
  headers: OutgoingHttpHeaders,
  body: Buffer,
  timeoutMs: number,
  method: 'POST' | 'PATCH' | 'DELETE' = 'POST',
): Promise<PostResult> {
  return new Promise((resolve) => {
    const transport = url.protocol === 'https:' ? https : http;
    let connected = false;
    let settled = false;
    let timedOut = false;
    const settle = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = transport.request(url, {
      method,
      headers,
      agent: agents[url.protocol as 'http:' | 'https:'],
    });
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error('upstream timeout'));
    }, timeoutMs);

    request.on('socket', (socket) => {
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_REPLY_BYTES) {
          settle({ kind: 'error', reason: 'too_large', error: new Error('upstream reply too large') });
          request.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () =>
        settle({
          kind: 'reply',
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks, size),
        }),
      );
      response.on('error', (error) => {
        settle({ kind: 'error', reason: timedOut ? 'timeout' : 'connection_lost', error });
      });
      response.on('close', () => {
        if (!response.complete) {
          settle({
            kind: 'error',
            reason: timedOut ? 'timeout' : 'connection_lost',
            error: new Error('reply cut short'),
          });
        }
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // No connection, no request: a timeout while still connecting sent nothing either.
      const reason =
        !connected && (timedOut || NOT_CONNECTED.has(error.code ?? ''))
          ? 'unreachable'
          : timedOut
            ? 'timeout'
            : 'connection_lost';
      settle({ kind: 'error', reason, error });
    });
    request.end(body);
  });
}
