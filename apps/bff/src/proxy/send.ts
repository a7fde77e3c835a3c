import { hash } from 'node:crypto';
import { AppError } from '@review-desk/server/errors';
import {
  ENDPOINTS,
  ERROR_CODES,
  type ErrorCode,
  fail,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_REPLAYED_HEADER,
  idempotencyKeySchema,
  type SendRequest,
  sendMayHaveGoneOut,
  sendRequestSchema,
  sendResultSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import type { Request, Response } from 'express';
import type { Config } from '../env.ts';
import { readJsonBody } from '../http/body.ts';
import { type ContactHasher, maskContact } from '../journal/contact.ts';
import type { Finish, Journal, JournalEntry } from '../journal/journal.ts';
import type { AccessLog } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import { type Answer, interpretReply } from './answer.ts';
import { passedResponseHeaders, type UpstreamHeaders } from './headers.ts';
import { PROXY_MESSAGES } from './messages.ts';
import { postUpstream } from './upstream-post.ts';

// POST /api/v1/requests/send, at most once per user intent (the seed's endpoint takes no
// idempotency key, §4, so the BFF provides one):
//   validate → claim (user, Idempotency-Key) in the journal → forward the original bytes →
//   record the outcome → answer. A claimed key answers later attempts from the journal.

const JSON_TYPE = 'application/json; charset=utf-8';
const sendReplySchema = successEnvelopeSchema(sendResultSchema);

export type SendDeps = {
  config: Config;
  journal: Journal;
  hasher: ContactHasher;
  upstreamHeaders: UpstreamHeaders;
  /** Where the send's outcome line goes (composed directly: its fields are fixed and never secret). */
  log: AccessLog;
  metrics: Metrics;
};

/** What the request means, in a fixed order: two spellings of one intent fingerprint alike. */
function fingerprint(send: SendRequest): string {
  const canonical = JSON.stringify([
    send.channel,
    send.customerName ?? null,
    send.customerPhone ?? null,
    send.customerEmail ?? null,
  ]);
  return hash('sha256', canonical, 'base64url');
}

const envelopeOf = (body: Buffer): { error: string; code: string | undefined } | null => {
  try {
    const value = JSON.parse(body.toString('utf8')) as { error?: unknown; code?: unknown };
    if (typeof value?.error !== 'string') return null;
    return { error: value.error, code: typeof value.code === 'string' ? value.code : undefined };
  } catch {
    return null;
  }
};

export function createSendHandler(deps: SendDeps) {
  const { config, journal, hasher, metrics } = deps;
  const target = new URL(config.upstream.url.href.replace(/\/+$/, '') + ENDPOINTS.send.path);
  const scope = ENDPOINTS.send.scope;
  const keyBytes = Buffer.from(config.upstream.key);
  // An in-flight entry older than this cannot still be waiting on its upstream exchange.
  const staleAfterMs = config.upstream.timeoutMs + 5_000;
  const pending = new Set<Promise<unknown>>();

  function write(res: Response, status: number, body: Buffer | Uint8Array, headers: Record<string, string>) {
    if (res.headersSent || res.destroyed) return;
    res.statusCode = status;
    for (const name in headers) res.setHeader(name, headers[name] as string);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('content-length', body.byteLength);
    res.end(body);
  }

  /** The key is already in the journal: replay, or explain why not. */
  function answerExisting(res: Response, entry: JournalEntry, print: string): void {
    if (entry.fingerprint !== print) {
      metrics.sends.inc({ outcome: 'key_reused' });
      throw new AppError('idempotency_mismatch', PROXY_MESSAGES.keyReused);
    }
    if (entry.outcome === 'in_flight' && Date.now() - entry.createdAt <= staleAfterMs) {
      metrics.sends.inc({ outcome: 'in_flight_conflict' });
      throw new AppError('idempotency_in_flight', PROXY_MESSAGES.inFlight);
    }
    if (entry.outcome === 'in_flight' || entry.outcome === 'unknown') {
      if (entry.outcome === 'in_flight') journal.orphanStale(staleAfterMs);
      metrics.sends.inc({ outcome: 'unknown_conflict' });
      throw new AppError('outcome_unknown', PROXY_MESSAGES.outcomeUnknown);
    }
    if (entry.httpStatus === null || entry.responseBody === null) {
      // Only reachable for a finished entry whose replay body was cleaned up with its key.
      throw new AppError('outcome_unknown', PROXY_MESSAGES.outcomeUnknown);
    }
    metrics.sends.inc({ outcome: 'replayed' });
    write(res, entry.httpStatus, entry.responseBody, {
      'content-type': entry.responseType ?? JSON_TYPE,
      [IDEMPOTENCY_REPLAYED_HEADER]: 'true',
    });
  }

  /** Decides the journal outcome and the browser's answer from the upstream's reply. */
  function settleReply(reply: {
    status: number;
    headers: import('node:http').IncomingHttpHeaders;
    body: Buffer;
  }): { finish: Finish; answer: Answer; headers: Record<string, string> } {
    const contentType = reply.headers['content-type'];
    const answer = interpretReply({ status: reply.status, contentType, body: reply.body }, scope, keyBytes);
    const headers: Record<string, string> = {
      ...passedResponseHeaders(reply.headers, config.upstream.key),
      'content-type': answer.kind === 'pass' && contentType ? contentType : JSON_TYPE,
    };
    if (reply.status >= 200 && reply.status < 300) {
      const parsed = answer.kind === 'pass' ? parseSuccess(answer.body) : null;
      if (parsed === null) {
        return {
          finish: { outcome: 'unknown', httpStatus: reply.status, error: PROXY_MESSAGES.sendUnreadable },
          answer: replaced('upstream_unreadable', PROXY_MESSAGES.sendUnreadable),
          headers: { 'content-type': JSON_TYPE },
        };
      }
      return {
        finish: {
          outcome: parsed.warning ? 'warning' : 'sent',
          httpStatus: answer.status,
          requestId: parsed.requestId,
          status: parsed.status,
          reviewLink: parsed.reviewLink,
          warning: parsed.warning ?? null,
          response: { type: headers['content-type'] as string, body: answer.body },
        },
        answer,
        headers,
      };
    }
    // A 5xx page that is not the service's envelope likely came from a gateway in front of it,
    // which may have passed the request on: nobody can say whether it was sent.
    if (reply.status >= 500 && answer.kind === 'replace' && reply.status !== 503) {
      return {
        finish: { outcome: 'unknown', httpStatus: reply.status, error: PROXY_MESSAGES.sendUnreadable },
        answer: replaced('upstream_unreadable', PROXY_MESSAGES.sendUnreadable),
        headers: { 'content-type': JSON_TYPE },
      };
    }
    // The service's own failure that may come after a delivery (`internal`: its code says so).
    const failure = envelopeOf(answer.body);
    if (answer.kind === 'pass' && sendMayHaveGoneOut({ status: answer.status, code: failure?.code })) {
      return {
        finish: {
          outcome: 'unknown',
          httpStatus: answer.status,
          error: failure?.error ?? `HTTP ${answer.status}`,
        },
        answer,
        headers,
      };
    }
    // A definite refusal: nothing went out, so the key is released and a retry goes upstream.
    return {
      finish: {
        outcome: 'failed',
        httpStatus: answer.status,
        error: failure?.error ?? `HTTP ${answer.status}`,
        releaseKey: true,
      },
      answer,
      headers,
    };
  }

  const replaced = (code: ErrorCode, message: string): Answer => ({
    kind: 'replace',
    status: ERROR_CODES[code].status,
    body: Buffer.from(JSON.stringify(fail(code, message))),
    reason: message,
  });

  function parseSuccess(body: Buffer) {
    try {
      const parsed = sendReplySchema.safeParse(JSON.parse(body.toString('utf8')));
      return parsed.success ? parsed.data.data : null;
    } catch {
      return null;
    }
  }

  async function handle(req: Request, res: Response): Promise<void> {
    const user = req.ctx.session!.user;
    const rawKey = req.headers[IDEMPOTENCY_KEY_HEADER];
    if (rawKey === undefined) throw new AppError('idempotency_key_missing', PROXY_MESSAGES.keyMissing);
    const key = idempotencyKeySchema.safeParse(rawKey);
    if (!key.success) throw new AppError('idempotency_key_invalid', key.error.issues[0]?.message);
    const idemKey = key.data.toLowerCase();

    const body = await readJsonBody(req);
    const parsed = sendRequestSchema.safeParse(body.value);
    if (!parsed.success) throw AppError.validation(parsed.error);
    const send = parsed.data;
    const print = fingerprint(send);

    const claim = {
      userId: user.id,
      sentBy: user.email,
      key: idemKey,
      fingerprint: print,
      channel: send.channel,
      customerName: send.customerName || null,
      contactMasked: maskContact({ phone: send.customerPhone, email: send.customerEmail }),
      phoneHash: send.customerPhone ? hasher.phone(send.customerPhone) : null,
      emailHash: send.customerEmail ? hasher.email(send.customerEmail) : null,
    };
    let id = await journal.claim(claim);
    // A claim lost to an entry whose key was released in the meantime is simply retried.
    for (let attempt = 0; id === null && attempt < 3; attempt++) {
      const existing = journal.find(user.id, idemKey);
      if (existing) {
        answerExisting(res, existing, print);
        return;
      }
      id = await journal.claim(claim);
    }
    if (id === null) throw new AppError('idempotency_in_flight', PROXY_MESSAGES.inFlight);

    const started = process.hrtime.bigint();
    const exchange = forward(id, body.raw, req, started);
    pending.add(exchange);
    try {
      const { answer, headers } = await exchange;
      write(res, answer.status, answer.body, headers);
    } finally {
      pending.delete(exchange);
    }
  }

  async function forward(id: string, raw: Buffer, req: Request, started: bigint) {
    const headers = deps.upstreamHeaders({
      method: 'POST',
      requestId: req.ctx.id,
      acceptLanguage: req.headers['accept-language'],
      contentLength: raw.length,
    });
    // The original bytes go upstream (validated above, never re-serialised).
    const result = await postUpstream(target, headers, raw, config.upstream.timeoutMs);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    let settled: { finish: Finish; answer: Answer; headers: Record<string, string> };
    if (result.kind === 'reply') {
      metrics.observeUpstream('send', result.status, seconds);
      settled = settleReply(result);
      if (settled.answer.kind === 'replace')
        metrics.upstreamErrors.inc({ endpoint: 'send', kind: 'unreadable' });
    } else {
      metrics.upstreamErrors.inc({ endpoint: 'send', kind: result.reason });
      const json = { 'content-type': JSON_TYPE };
      if (result.reason === 'unreachable') {
        settled = {
          finish: {
            outcome: 'failed',
            httpStatus: 502,
            error: PROXY_MESSAGES.sendUnreachable,
            releaseKey: true,
          },
          answer: replaced('upstream_unreachable', PROXY_MESSAGES.sendUnreachable),
          headers: json,
        };
      } else if (result.reason === 'timeout') {
        settled = {
          finish: { outcome: 'unknown', httpStatus: 504, error: PROXY_MESSAGES.sendTimeout },
          answer: replaced('upstream_timeout', PROXY_MESSAGES.sendTimeout),
          headers: json,
        };
      } else {
        settled = {
          finish: { outcome: 'unknown', httpStatus: 502, error: PROXY_MESSAGES.sendConnectionLost },
          answer: replaced('upstream_connection_lost', PROXY_MESSAGES.sendConnectionLost),
          headers: json,
        };
      }
    }
    await journal.finish(id, settled.finish);
    metrics.sends.inc({ outcome: settled.finish.outcome });
    deps.log.send({
      reqId: req.ctx.id,
      user: req.ctx.session?.user.id,
      send: id,
      outcome: settled.finish.outcome,
      upstreamStatus: result.kind === 'reply' ? result.status : null,
      upstreamError: result.kind === 'error' ? result.reason : undefined,
      ms: Math.round(seconds * 10_000) / 10,
    });
    return settled;
  }

  return {
    handle,
    /** Resolves when every send already forwarded has its outcome recorded (graceful shutdown). */
    drain: () => Promise.allSettled([...pending]).then(() => undefined),
  };
}
export type SendHandler = ReturnType<typeof createSendHandler>;
