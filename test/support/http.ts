import http from 'node:http';
import net from 'node:net';
import { CSRF_HEADER, CSRF_HEADER_VALUE, codedErrorEnvelopeSchema } from '@review-desk/shared';

// HTTP for system tests: one request with an exact target, headers and body (fetch would
// normalise `%2e%2e`, `//` and absolute-form away), and a browser-shaped session on top of it.

/** Starts `server` on a free port of 127.0.0.1: its address, `<scheme>://127.0.0.1:<port>`. */
export async function listenLocal(server: net.Server, scheme = 'http'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

export type Reply = {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back and assert on it
  json: any;
  ms: number;
};

export type RequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: http.Agent | false;
  /** Give up (reject) after this long: a test must never wait for ever on one request. */
  timeoutMs?: number;
};

/**
 * Bytes as written, on a connection of their own, and everything that comes back until the
 * server closes it: for what no HTTP client sends (no Host, an unknown Expect, garbage).
 */
export function rawExchange(base: string, bytes: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(bytes));
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

export function request(base: string, target: string, options: RequestOptions = {}): Promise<Reply> {
  const url = new URL(base);
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { ...options.headers };
  // Node's client frames a GET body with nothing; without a length the server would read it as
  // a second request.
  if (options.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
    headers['content-length'] = String(Buffer.byteLength(options.body));
  }
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: target,
        headers,
        agent: options.agent ?? false,
        // The fuzzer sends overlong targets on purpose: let the server be the one to refuse them.
        maxHeaderSize: 1024 * 1024,
        insecureHTTPParser: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json,
            ms: performance.now() - started,
          });
        });
        res.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        res.on('close', () => {
          clearTimeout(timer);
          if (!res.complete) reject(new Error(`answer to ${method} ${target.slice(0, 200)} cut short`));
        });
      },
    );
    const timer = setTimeout(
      () =>
        req.destroy(
          new Error(
            `no answer to ${method} ${target.slice(0, 200)} within ${options.timeoutMs ?? 30_000} ms`,
          ),
        ),
      options.timeoutMs ?? 30_000,
    );
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(options.body);
  });
}

/**
 * Whether a body is the envelope as our services write it: `{success:true, data}`, or
 * `{success:false, error, code}` with a code from the shared table — a code the table lacks
 * fails every suite that checks its answers with this. Codes seen are counted in `codesSeen`.
 */
export function isEnvelope(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const value = json as Record<string, unknown>;
  if (value.success === true) return Object.hasOwn(value, 'data');
  const parsed = codedErrorEnvelopeSchema.safeParse(value);
  if (parsed.success) codesSeen.set(parsed.data.code, (codesSeen.get(parsed.data.code) ?? 0) + 1);
  return parsed.success;
}

/** How often each error code was seen by isEnvelope in this test file. */
export const codesSeen = new Map<string, number>();

/** A dashboard user's browser: keeps the session cookie, sends X-CSRF and Origin on writes. */
export class Session {
  readonly base: string;
  cookie: string | null = null;
  agent: http.Agent | false;

  constructor(base: string, agent: http.Agent | false = false) {
    this.base = base;
    this.agent = agent;
  }

  async request(
    method: string,
    target: string,
    options: { json?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.cookie) headers.cookie = this.cookie;
    if (method !== 'GET' && method !== 'HEAD') {
      headers[CSRF_HEADER] = CSRF_HEADER_VALUE;
      headers.origin = this.base;
    }
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    const reply = await request(this.base, target, {
      method,
      headers,
      agent: this.agent,
      ...(body !== undefined ? { body } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    for (const cookie of reply.headers['set-cookie'] ?? []) {
      const [pair] = cookie.split(';');
      const [name, value] = (pair ?? '').split('=');
      if (name?.endsWith('rd_session')) this.cookie = value ? `${name}=${value}` : null;
    }
    return reply;
  }

  get(target: string) {
    return this.request('GET', target);
  }

  post(target: string, json: unknown, headers?: Record<string, string>) {
    return this.request('POST', target, { json, ...(headers ? { headers } : {}) });
  }

  login(email: string, password: string) {
    return this.post('/auth/login', { email, password });
  }

  /** POST /api/v1/requests/send with an Idempotency-Key (a new one unless given). */
  send(body: unknown, key: string = crypto.randomUUID(), timeoutMs?: number) {
    return this.request('POST', '/api/v1/requests/send', {
      json: body,
      headers: { 'idempotency-key': key },
      ...(timeoutMs ? { timeoutMs } : {}),
    });
  }
}
