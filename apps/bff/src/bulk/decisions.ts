import { createHash } from 'node:crypto';
import type { DeliveryResult } from '../proxy/send.ts';
import type { RowResult } from './store.ts';

// What each answer means for a list send, as pure decisions (worker.ts reads, calls and writes
// around them; decisions.test.ts pins every case):
// - `judgeDelivery`: a row's outcome, a wait before trying the same row again, or a pause of the
//   whole job with the reason in words;
// - `waitAfter429`: how long the upstream asked us to wait (Retry-After, else RateLimit-Reset,
//   else a back-off with jitter, as docs/api.md "Errors" asks of clients);
// - `rowKey`: each row's idempotency key, derived from the job, the row and its generation.

export type Verdict =
  | { kind: 'row'; result: RowResult }
  /** Nothing was sent: the same row again after `ms`. `down`: the upstream failed, not a limit. */
  | { kind: 'wait'; ms: number; down: boolean; reason: string }
  /** Nothing was sent and no other row would fare better: the job pauses with this reason. */
  | { kind: 'pause'; reason: string };

/** The key of a row's send: a UUID (version 8, RFC 9562) from the job id, row index and generation. */
export function rowKey(jobId: string, index: number, generation: number): string {
  const hex = createHash('sha256')
    .update(`bulk-send\u0000${jobId}\u0000${index}\u0000${generation}`)
    .digest('hex');
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function envelope(body: Uint8Array): { error: string | null; code: string | null } {
  try {
    const value = JSON.parse(Buffer.from(body).toString('utf8')) as { error?: unknown; code?: unknown };
    return {
      error: typeof value?.error === 'string' ? value.error : null,
      code: typeof value?.code === 'string' ? value.code : null,
    };
  } catch {
    return { error: null, code: null };
  }
}

/** A success envelope's request id and warning. */
function createdOf(body: Uint8Array): { requestId: string | null; warning: string | null } {
  try {
    const value = JSON.parse(Buffer.from(body).toString('utf8')) as {
      data?: { requestId?: unknown; warning?: unknown };
    };
    return {
      requestId: typeof value?.data?.requestId === 'string' ? value.data.requestId : null,
      warning: typeof value?.data?.warning === 'string' ? value.data.warning : null,
    };
  } catch {
    return { requestId: null, warning: null };
  }
}

/** Back-off for attempt n (1, 2, …) with full jitter: up to 2^n s, at most a minute. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(60_000, 1_000 * 2 ** Math.max(1, attempt));
  return Math.max(500, Math.round(ceiling * random()));
}

/**
 * A 429's wait: Retry-After (seconds or an HTTP date), else RateLimit-Reset (seconds), else the
 * jittered back-off. A little margin is added so the next request lands after the window.
 */
export function waitAfter429(
  headers: Record<string, string>,
  attempt: number,
  now: number,
  random: () => number = Math.random,
): number {
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) {
    if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim()) * 1_000 + 50;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now) + 50;
  }
  const reset = headers['ratelimit-reset'];
  if (reset !== undefined && /^\d+$/.test(reset.trim())) return Number(reset.trim()) * 1_000 + 50;
  return backoffMs(attempt, random);
}

const UNKNOWN_WORDS =
  'Outcome unknown — this request may have been sent. It is not sent again automatically; check recent requests before retrying it.';

/** What a row's delivery attempt means. `attempt`: how many times this row was tried in a row. */
export function judgeDelivery(
  result: DeliveryResult,
  attempt: number,
  now: number,
  random: () => number = Math.random,
): Verdict {
  if (result.kind === 'refused') {
    // The journal holds this row's key already: in flight elsewhere, or its outcome is unknown.
    return { kind: 'row', result: { outcome: 'unknown', code: result.error.code, detail: UNKNOWN_WORDS } };
  }
  if (result.kind === 'replay') {
    // Sent before (an earlier run of this job recorded it in the journal): not sent again.
    if (result.outcome === 'sent' || result.outcome === 'warning') {
      const created = createdOf(result.body);
      return {
        kind: 'row',
        result: { outcome: result.outcome, requestId: created.requestId, detail: created.warning },
      };
    }
    return { kind: 'row', result: { outcome: 'unknown', code: 'outcome_unknown', detail: UNKNOWN_WORDS } };
  }
  const { finish, answer, headers } = result.settled;
  if (finish.outcome === 'sent' || finish.outcome === 'warning') {
    return {
      kind: 'row',
      result: {
        outcome: finish.outcome,
        requestId: finish.requestId ?? null,
        detail: finish.warning ?? null,
      },
    };
  }
  const words = envelope(answer.body);
  if (finish.outcome === 'unknown') {
    return {
      kind: 'row',
      result: { outcome: 'unknown', code: words.code, detail: finish.error ?? words.error ?? UNKNOWN_WORDS },
    };
  }
  // A definite failure: nothing went out (the journal released the key).
  const status = finish.httpStatus ?? 0;
  const message = words.error ?? finish.error ?? `HTTP ${status}`;
  if (status === 429) {
    return { kind: 'wait', ms: waitAfter429(headers, attempt, now, random), down: false, reason: message };
  }
  // The key or the business, not this row: every other row would be refused the same way.
  if (status === 401 || status === 403) return { kind: 'pause', reason: message };
  if (status >= 500) return { kind: 'wait', ms: backoffMs(attempt, random), down: true, reason: message };
  return { kind: 'row', result: { outcome: 'refused', code: words.code, detail: message } };
}
