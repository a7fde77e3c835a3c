import { hash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { AppError } from '@review-desk/server/errors';
import {
  ENDPOINTS,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_REPLAYED_HEADER,
  idempotencyKeySchema,
  type SendOutcome,
  type SendRequest,
  sendIntent,
  sendRequestSchema,
} from '@review-desk/shared';
import type { Upstream } from '../env.ts';
import { readJsonBody } from '../http/body.ts';
import type { GateRequest } from '../http/gate.ts';
import { type ContactHasher, maskContact } from '../journal/contact.ts';
import type { Journal } from '../journal/journal.ts';
import type { AccessLog } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { UpstreamHeaders } from './headers.ts';
import { PROXY_MESSAGES } from './messages.ts';
import { answerExisting, type Settlement, settleSend } from './send-outcome.ts';
import { postUpstream } from './upstream-post.ts';

// POST /api/v1/requests/send, at most once per user intent (the upstream's endpoint takes no
// idempotency key — docs/api.md, "Sending a review request" — so the BFF provides one):
//   validate → claim (user, Idempotency-Key) in the journal → forward the validated body →
//   record the outcome → answer. A claimed key answers later attempts from the journal.
// This module reads, calls and writes; what each answer means is decided in send-outcome.ts.

export type SendDeps = {
  /** The location's upstream: its URL, key and deadline. */
  upstream: Upstream;
  /** The id of the location this handler sends to: recorded with each send. */
  location: string;
  journal: Journal;
  hasher: ContactHasher;
  upstreamHeaders: UpstreamHeaders;
  /** Where the send's outcome line goes (composed directly: its fields are fixed and never secret). */
  log: AccessLog;
  metrics: Metrics;
};

export type Delivery = {
  user: { id: string; email: string };
  /** The idempotency key (a UUID): one send per (user, key), ever. */
  key: string;
  /** Validated and normalised by the shared send schema. */
  send: SendRequest;
  requestId: string;
  acceptLanguage?: string | string[] | undefined;
};

export type DeliveryResult =
  /** The exchange ran: what the upstream's answer (or the lack of one) means. */
  | { kind: 'settled'; entry: string; settled: Settlement }
  /** The key already holds a finished send: its answer again, nothing sent. */
  | { kind: 'replay'; status: number; type: string; body: Uint8Array; outcome: SendOutcome }
  /** The key is in flight, unknown or reused for another intent: nothing sent. */
  | { kind: 'refused'; error: AppError };

export function createSendHandler(deps: SendDeps) {
  const { upstream, journal, hasher, metrics } = deps;
  const target = new URL(upstream.url.href.replace(/\/+$/, '') + ENDPOINTS.send.path);
  // An in-flight entry older than this cannot still be waiting on its upstream exchange.
  const staleAfterMs = upstream.timeoutMs + 5_000;
  const pending = new Set<Promise<unknown>>();

  function write(res: ServerResponse, status: number, body: Uint8Array, headers: Record<string, string>) {
    if (res.headersSent || res.destroyed) return;
    res.statusCode = status;
    for (const name in headers) res.setHeader(name, headers[name] as string);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('content-length', body.byteLength);
    res.end(body);
  }

  async function handle(req: GateRequest, res: ServerResponse): Promise<void> {
    const user = req.ctx.session!.user;
    const rawKey = req.headers[IDEMPOTENCY_KEY_HEADER];
    if (rawKey === undefined) throw new AppError('idempotency_key_missing', PROXY_MESSAGES.keyMissing);
    const key = idempotencyKeySchema.safeParse(rawKey);
    if (!key.success) throw new AppError('idempotency_key_invalid', key.error.issues[0]?.message);

    const parsed = sendRequestSchema.safeParse(await readJsonBody(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const attempt = await deliver({
      user: { id: user.id, email: user.email },
      key: key.data,
      send: parsed.data,
      requestId: req.ctx.id,
      acceptLanguage: req.headers['accept-language'],
    });
    if (attempt.kind === 'refused') throw attempt.error;
    if (attempt.kind === 'replay') {
      write(res, attempt.status, attempt.body, {
        'content-type': attempt.type,
        [IDEMPOTENCY_REPLAYED_HEADER]: 'true',
      });
      return;
    }
    write(res, attempt.settled.answer.status, attempt.settled.answer.body, attempt.settled.headers);
  }

  /**
   * One send at most once per (user, key): claim → forward the validated body → record the
   * outcome. The dashboard's sends and each row of a list send (bulk/worker.ts) come through here.
   */
  async function deliver(input: Delivery): Promise<DeliveryResult> {
    const { user, send } = input;
    const idemKey = input.key.toLowerCase();
    const fingerprint = hash('sha256', sendIntent(send), 'base64url');
    const claim = {
      userId: user.id,
      sentBy: user.email,
      key: idemKey,
      fingerprint,
      channel: send.channel,
      customerName: send.customerName || null,
      contactMasked: maskContact({ phone: send.customerPhone, email: send.customerEmail }),
      phoneHash: send.customerPhone ? hasher.phone(send.customerPhone) : null,
      emailHash: send.customerEmail ? hasher.email(send.customerEmail) : null,
      location: deps.location,
    };
    let id = await journal.claim(claim);
    // A claim lost to an entry whose key was released in the meantime is simply retried.
    for (let attempt = 0; id === null && attempt < 3; attempt++) {
      const existing = await journal.find(user.id, idemKey);
      if (existing) {
        const answer = answerExisting(
          existing,
          { fingerprint, location: deps.location },
          Date.now(),
          staleAfterMs,
        );
        if (answer.kind === 'refuse') {
          if (answer.orphanStale) await journal.orphanStale(staleAfterMs);
          metrics.sends.inc({ outcome: answer.metric });
          return { kind: 'refused', error: answer.error };
        }
        metrics.sends.inc({ outcome: 'replayed' });
        return {
          kind: 'replay',
          status: answer.status,
          type: answer.type,
          body: answer.body,
          outcome: existing.outcome,
        };
      }
      id = await journal.claim(claim);
    }
    if (id === null)
      return { kind: 'refused', error: new AppError('idempotency_in_flight', PROXY_MESSAGES.inFlight) };

    // What goes upstream is what was validated, re-serialised: never the browser's bytes, in
    // which a duplicated key could make the upstream read another value than the one checked.
    const body = Buffer.from(JSON.stringify(send));
    const exchange = forward(id, body, input);
    pending.add(exchange);
    try {
      return { kind: 'settled', entry: id, settled: await exchange };
    } finally {
      pending.delete(exchange);
    }
  }

  async function forward(id: string, body: Buffer, input: Delivery): Promise<Settlement> {
    const started = process.hrtime.bigint();
    const headers = deps.upstreamHeaders({
      method: 'POST',
      requestId: input.requestId,
      acceptLanguage: input.acceptLanguage,
      contentLength: body.length,
    });
    const result = await postUpstream(target, headers, body, upstream.timeoutMs);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const settled = settleSend(result, upstream.key);
    if (result.kind === 'reply') {
      metrics.observeUpstream('send', result.status, seconds);
      if (settled.answer.kind === 'replace')
        metrics.upstreamErrors.inc({ endpoint: 'send', kind: 'unreadable' });
    } else {
      metrics.upstreamErrors.inc({ endpoint: 'send', kind: result.reason });
    }
    await journal.finish(id, settled.finish);
    metrics.sends.inc({ outcome: settled.finish.outcome });
    deps.log.send({
      reqId: input.requestId,
      user: input.user.id,
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
    deliver,
    /** Resolves when every send already forwarded has its outcome recorded (graceful shutdown). */
    drain: () => Promise.allSettled([...pending]).then(() => undefined),
    /** Sends forwarded whose outcome is not recorded yet. */
    inFlight: () => pending.size,
  };
}
export type SendHandler = ReturnType<typeof createSendHandler>;
