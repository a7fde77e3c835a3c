import type { ServerResponse } from 'node:http';
import { AppError } from '@review-desk/server/errors';
import {
  bffReplyBodySchema,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_REPLAYED_HEADER,
  idempotencyKeySchema,
  PROXIED_ENDPOINTS,
  queryRecord,
  REVIEW_ID_PATTERN,
  type ReviewActionEntry,
  reviewDetailSchema,
  reviewPath,
  reviewReplyPath,
  statusBodySchema,
  successEnvelopeSchema,
  withdrawQuerySchema,
} from '@review-desk/shared';
import type { Upstream } from '../env.ts';
import { readJsonBody } from '../http/body.ts';
import type { GateRequest } from '../http/gate.ts';
import { interpretReply } from '../proxy/answer.ts';
import type { UpstreamHeaders } from '../proxy/headers.ts';
import { PROXY_MESSAGES } from '../proxy/messages.ts';
import { postUpstream } from '../proxy/upstream-post.ts';
import type { ActionEnd, ReviewJournal } from './journal.ts';

// Answering a review through the dashboard (docs/bff.md, "Answering reviews"): validate with the
// shared schemas → name who answers (the signed-in user; the browser cannot) → journal the action
// → forward it with the location's key and the browser's Idempotency-Key → journal the outcome →
// answer. At most once is the service's promise (one reply per Idempotency-Key): a retry with the
// same key is answered from there, never delivered twice.

export type WriteEndpoint = 'reviewStatus' | 'reviewReply' | 'reviewWithdraw';

const JSON_TYPE = 'application/json; charset=utf-8';
const reviewAnswerSchema = successEnvelopeSchema(reviewDetailSchema);

function idempotencyKey(req: GateRequest): string {
  const raw = req.headers[IDEMPOTENCY_KEY_HEADER];
  if (raw === undefined) throw new AppError('idempotency_key_missing');
  const parsed = idempotencyKeySchema.safeParse(raw);
  if (!parsed.success) throw new AppError('idempotency_key_invalid', parsed.error.issues[0]?.message);
  return parsed.data.toLowerCase();
}

/** The change asked for, validated and rebuilt: what goes upstream is never the browser's bytes. */
async function changeOf(req: GateRequest, endpoint: WriteEndpoint, id: string, by: string) {
  if (endpoint === 'reviewReply') {
    const parsed = bffReplyBodySchema.safeParse(await readJsonBody(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const body = { ...parsed.data, respondedBy: by };
    return {
      action: 'reply' as const,
      method: 'POST' as const,
      path: reviewReplyPath(id),
      body,
      text: parsed.data.text,
      key: idempotencyKey(req),
    };
  }
  if (endpoint === 'reviewStatus') {
    const parsed = statusBodySchema.safeParse(await readJsonBody(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const action = parsed.data.status === 'ignored' ? ('ignore' as const) : ('reopen' as const);
    return {
      action,
      method: 'PATCH' as const,
      path: reviewPath(id),
      body: parsed.data,
      text: null,
      key: null,
    };
  }
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const parsed = withdrawQuerySchema.safeParse(queryRecord(q === -1 ? '' : url.slice(q + 1)));
  if (!parsed.success) throw AppError.validation(parsed.error);
  const version = parsed.data.version;
  const path = `${reviewReplyPath(id)}${version === undefined ? '' : `?version=${version}`}`;
  return {
    action: 'withdraw' as const,
    method: 'DELETE' as const,
    path,
    body: null,
    text: null,
    key: idempotencyKey(req),
  };
}

export function createReviewWrites(deps: {
  /** The location's upstream: its URL, key and timeout. */
  upstream: Upstream;
  /** The location (its id) these writes go to: journaled with each. */
  location: string;
  journal: ReviewJournal;
  upstreamHeaders: UpstreamHeaders;
}) {
  const { upstream, journal } = deps;
  const base = upstream.url.href.replace(/\/+$/, '');
  const keyBytes = Buffer.from(upstream.key);

  async function handle(
    req: GateRequest,
    res: ServerResponse,
    endpoint: WriteEndpoint,
    id: string | undefined,
  ) {
    if (id === undefined || !REVIEW_ID_PATTERN.test(id)) throw new AppError('review_not_found');
    const user = req.ctx.session!.user;
    const change = await changeOf(req, endpoint, id, user.email);
    const entry = await journal.begin({
      location: deps.location,
      reviewId: id,
      userId: user.id,
      userEmail: user.email,
      action: change.action as ReviewActionEntry['action'],
      text: change.text,
      key: change.key,
    });
    const payload = change.body === null ? Buffer.alloc(0) : Buffer.from(JSON.stringify(change.body));
    const headers = deps.upstreamHeaders({
      method: 'POST',
      requestId: req.ctx.id,
      contentLength: payload.length,
    });
    if (change.key) headers[IDEMPOTENCY_KEY_HEADER] = change.key;
    const result = await postUpstream(
      new URL(base + change.path),
      headers,
      payload,
      upstream.timeoutMs,
      change.method,
    );
    let end: ActionEnd;
    let answer: { status: number; body: Buffer };
    if (result.kind === 'error') {
      // No connection: nothing was asked. Any other loss: the service may have done it.
      const unreachable = result.reason === 'unreachable';
      const code = unreachable
        ? 'upstream_unreachable'
        : result.reason === 'timeout'
          ? 'upstream_timeout'
          : 'upstream_connection_lost';
      const error = new AppError(code, unreachable ? PROXY_MESSAGES.unreachable : PROXY_MESSAGES.timeout);
      end = {
        outcome: unreachable ? 'refused' : 'unknown',
        httpStatus: null,
        replyState: null,
        error: error.message,
      };
      answer = { status: error.status, body: Buffer.from(JSON.stringify(error.envelope)) };
    } else {
      const contentType = result.headers['content-type'];
      const interpreted = interpretReply(
        { status: result.status, contentType, body: result.body },
        PROXIED_ENDPOINTS[endpoint].scope,
        keyBytes,
      );
      answer = interpreted;
      end = outcomeOf(interpreted.status, interpreted.body);
      if (result.headers[IDEMPOTENCY_REPLAYED_HEADER] === 'true')
        res.setHeader(IDEMPOTENCY_REPLAYED_HEADER, 'true');
    }
    await journal.finish(entry, end);
    res.statusCode = answer.status;
    res.setHeader('content-type', JSON_TYPE);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('content-length', answer.body.length);
    res.end(answer.body);
  }

  return { handle };
}
export type ReviewWrites = ReturnType<typeof createReviewWrites>;

/** What the service's answer means for the journal. */
export function outcomeOf(status: number, body: Buffer): ActionEnd {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    parsed = null;
  }
  if (status >= 200 && status < 300) {
    const review = reviewAnswerSchema.safeParse(parsed);
    const reply = review.success ? review.data.data.reply : null;
    return {
      outcome: 'done',
      httpStatus: status,
      replyState: reply?.state ?? null,
      error: reply?.error ?? null,
    };
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  const code = (parsed as { code?: unknown } | null)?.code;
  // The service's own word that the outcome is unknown (a reply may have been delivered).
  const unknown = code === 'outcome_unknown' || (status >= 500 && status !== 503);
  return {
    outcome: unknown ? 'unknown' : 'refused',
    httpStatus: status,
    replyState: null,
    error: typeof error === 'string' ? error : `HTTP ${status}`,
  };
}
