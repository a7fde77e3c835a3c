import http from 'node:http';
import { jsonOr } from '@review-desk/server/test-support/json';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared';
import { expect } from 'vitest';

// A browser-shaped client for the BFF: it keeps the session cookie and, like the dashboard,
// sends X-CSRF: 1 and the same-origin Origin on state-changing requests. `raw` sends a request
// target byte for byte (fetch would normalise `%2e%2e`, `//` and absolute-form away).

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back and assert on it
export type Reply = { status: number; headers: Headers; text: string; json: any };

export { newApiKey } from '../../../../test/support/stack.ts';

export class DashboardClient {
  readonly base: string;
  cookie: string | null = null;

  constructor(base: string) {
    this.base = base;
  }

  async request(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(this.cookie ? { cookie: this.cookie } : {}),
    };
    if (options.csrf !== false && method !== 'GET') {
      headers[CSRF_HEADER] = CSRF_HEADER_VALUE;
      headers.origin = this.base;
    }
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    const response = await fetch(`${this.base}${path}`, { method, headers, body, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, value] = (pair ?? '').split('=');
      if (name?.endsWith('rd_session')) this.cookie = value ? `${name}=${value}` : null;
    }
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: jsonOr(text, undefined) };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, headers ? { headers } : {});
  }

  post(path: string, body: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, { body, ...(headers ? { headers } : {}) });
  }

  put(path: string, body: unknown, headers?: Record<string, string>) {
    return this.request('PUT', path, { body, ...(headers ? { headers } : {}) });
  }

  async login(email: string, password: string): Promise<Reply> {
    return this.post('/auth/login', { email, password });
  }

  send(body: unknown, key: string | null = crypto.randomUUID(), headers: Record<string, string> = {}) {
    return this.post('/api/v1/requests/send', body, {
      ...(key ? { 'idempotency-key': key } : {}),
      ...headers,
    });
  }
}

/** Asserts a refusal: the status, and exactly the envelope {success: false, error, code} (the error's words, or a pattern they match). */
export function expectFailure(reply: Reply, status: number, code: string, error: string | RegExp): void {
  expect(reply.status).toBe(status);
  expect(reply.json).toEqual({
    success: false,
    error: typeof error === 'string' ? error : expect.stringMatching(error),
    code,
  });
}

export type RawReply = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** One request with an exact request target (path), headers and body, over a fresh connection. */
export function raw(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawReply> {
  const url = new URL(base);
  // Node's client frames a GET body with nothing; without a length the server would read it as
  // a second request.
  const framed =
    body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')
      ? { ...headers, 'content-length': String(Buffer.byteLength(body)) }
      : headers;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, method, path: target, headers: framed, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
