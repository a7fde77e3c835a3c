import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '@review-desk/server/errors';
import {
  ENDPOINTS,
  ERROR_CODES,
  type ErrorCode,
  fail,
  sendMayHaveGoneOut,
  sendResultSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import type { Finish, JournalEntry } from '../journal/journal.ts';
import { type Answer, interpretReply } from './answer.ts';
import { passedResponseHeaders } from './headers.ts';
import { PROXY_MESSAGES } from './messages.ts';
import type { PostResult } from './upstream-post.ts';

// What an answer means for the journal, as pure decisions (send.ts does the reading, calling and
// writing around them; the tables in send-outcome.test.ts pin every case):
// - `settleSend`: what the upstream's answer (or the failure to get one) means — the journal's
//   outcome, whether the key is released, and what the browser is told;
// - `answerExisting`: what a key already in the journal means for a new attempt with it.

const JSON_TYPE = 'application/json; charset=utf-8';
const sendReplySchema = successEnvelopeSchema(sendResultSchema);
const SCOPE = ENDPOINTS.send.scope;

export type Settlement = { finish: Finish; answer: Answer; headers: Record<string, string> };

const replaced = (code: ErrorCode, message: string): Answer => ({
  kind: 'replace',
  status: ERROR_CODES[code].status,
  body: Buffer.from(JSON.stringify(fail(code, message))),
  reason: message,
});

/** Nobody can say whether the request was sent: 'unknown', never retried with the same key. */
const unknown = (httpStatus: number, code: ErrorCode, message: string): Settlement => ({
  finish: { outcome: 'unknown', httpStatus, error: message },
  answer: replaced(code, message),
  headers: { 'content-type': JSON_TYPE },
});

function parseSuccess(body: Buffer) {
  try {
    const parsed = sendReplySchema.safeParse(JSON.parse(body.toString('utf8')));
    return parsed.success ? parsed.data.data : null;
  } catch {
    return null;
  }
}

/** The message and code of a failure envelope, or null for any other body. */
function envelopeOf(body: Buffer): { error: string; code: string | undefined } | null {
  try {
    const value = JSON.parse(body.toString('utf8')) as { error?: unknown; code?: unknown };
    if (typeof value?.error !== 'string') return null;
    return { error: value.error, code: typeof value.code === 'string' ? value.code : undefined };
  } catch {
    return null;
  }
}

/** The upstream answered: what its status and body mean. */
function settleReply(
  reply: { status: number; headers: IncomingHttpHeaders; body: Buffer },
  key: string,
): Settlement {
  const contentType = reply.headers['content-type'];
  const answer = interpretReply(
    { status: reply.status, contentType, body: reply.body },
    SCOPE,
    Buffer.from(key),
  );
  const headers: Record<string, string> = {
    ...passedResponseHeaders(reply.headers, key),
    'content-type': answer.kind === 'pass' && contentType ? contentType : JSON_TYPE,
  };
  if (reply.status >= 200 && reply.status < 300) {
    const parsed = answer.kind === 'pass' ? parseSuccess(answer.body) : null;
    // Accepted, but what was created cannot be read: a request was probably created.
    if (parsed === null) return unknown(reply.status, 'upstream_unreadable', PROXY_MESSAGES.sendUnreadable);
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
  if (reply.status >= 500 && answer.kind === 'replace' && reply.status !== 503)
    return unknown(reply.status, 'upstream_unreadable', PROXY_MESSAGES.sendUnreadable);
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

/** What the upstream exchange's result means for the journal and for the browser. */
export function settleSend(result: PostResult, key: string): Settlement {
  if (result.kind === 'reply') return settleReply(result, key);
  switch (result.reason) {
    case 'unreachable':
      // No connection was ever made: nothing was sent, the key is released.
      return {
        finish: {
          outcome: 'failed',
          httpStatus: 502,
          error: PROXY_MESSAGES.sendUnreachable,
          releaseKey: true,
        },
        answer: replaced('upstream_unreachable', PROXY_MESSAGES.sendUnreachable),
        headers: { 'content-type': JSON_TYPE },
      };
    case 'timeout':
      return unknown(504, 'upstream_timeout', PROXY_MESSAGES.sendTimeout);
    case 'too_large':
      // An answer began (so the request arrived) but was too large to read.
      return unknown(502, 'upstream_unreadable', PROXY_MESSAGES.sendUnreadable);
    case 'connection_lost':
      return unknown(502, 'upstream_connection_lost', PROXY_MESSAGES.sendConnectionLost);
  }
}

export type ExistingAnswer =
  | { kind: 'replay'; status: number; type: string; body: Uint8Array }
  /** `metric`: the bff_sends_total outcome; `orphanStale`: sweep in-flight entries past their deadline. */
  | { kind: 'refuse'; error: AppError; metric: string; orphanStale: boolean };

/** A new attempt with a key the journal holds: replay a finished send, or say why not. */
export function answerExisting(
  entry: JournalEntry,
  attempt: { fingerprint: string; location: string },
  now: number,
  staleAfterMs: number,
): ExistingAnswer {
  const refuse = (metric: string, code: ErrorCode, message: string, orphanStale = false) =>
    ({ kind: 'refuse', error: new AppError(code, message), metric, orphanStale }) as const;
  // A key is one intent of one user at one location: used at another, it is never that
  // location's answer (nothing was sent there) — decision 0025.
  if (entry.location !== attempt.location)
    return refuse('key_reused', 'idempotency_mismatch', PROXY_MESSAGES.keyOtherLocation);
  if (entry.fingerprint !== attempt.fingerprint)
    return refuse('key_reused', 'idempotency_mismatch', PROXY_MESSAGES.keyReused);
  if (entry.outcome === 'in_flight' && now - entry.createdAt <= staleAfterMs)
    return refuse('in_flight_conflict', 'idempotency_in_flight', PROXY_MESSAGES.inFlight);
  // An in-flight entry past its deadline cannot still be waiting on its exchange.
  if (entry.outcome === 'in_flight' || entry.outcome === 'unknown')
    return refuse(
      'unknown_conflict',
      'outcome_unknown',
      PROXY_MESSAGES.outcomeUnknown,
      entry.outcome === 'in_flight',
    );
  // Only a finished entry whose replay body was cleaned up with its key lacks one.
  if (entry.httpStatus === null || entry.responseBody === null)
    return refuse('unknown_conflict', 'outcome_unknown', PROXY_MESSAGES.outcomeUnknown);
  return {
    kind: 'replay',
    status: entry.httpStatus,
    type: entry.responseType ?? JSON_TYPE,
    body: entry.responseBody,
  };
}
