// Error codes: every failure envelope of the service and the BFF carries one of these in `code`,
// beside the human message in `error` (docs/api.md, "Errors"). Callers decide on the code; the
// message is for people and may change. Each code has one status, a default message, whether
// trying the same request again can help, and what the caller (or the dashboard user) may do.

import { COMMON_ERROR_CODES, type ErrorCodeInfo } from './error-codes.ts';
import { API_ERROR_CODES } from './error-codes-api.ts';
import { BFF_ERROR_CODES } from './error-codes-bff.ts';
import { INTEGRATION_ERROR_CODES } from './error-codes-integrations.ts';

export type { ErrorCodeInfo } from './error-codes.ts';

export const ERROR_CODES = {
  ...COMMON_ERROR_CODES,
  ...API_ERROR_CODES,
  ...BFF_ERROR_CODES,
  ...INTEGRATION_ERROR_CODES,
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

export function errorCodeInfo(code: ErrorCode): ErrorCodeInfo {
  return ERROR_CODES[code];
}

/** Messages that name a value (a scope, a limit, a wait); the rest are the table's defaults. */
export const MESSAGES = {
  scopeMissing: (scope: string) => `This API key lacks the ${scope} scope.`,
  allowanceExceeded: (limit: number) =>
    `Sending allowance exceeded: this business may send ${limit} review requests per calendar month.`,
  rateLimited: (retryAfterSeconds: number) =>
    `Request limit of this key reached; retry after ${retryAfterSeconds} seconds.`,
  frequencyCap: (days: number) =>
    `This customer was sent a review request in the last ${days} days; one request per customer every ${days} days. Nothing was sent.`,
  bodyTooLarge: (bytes: number) => `Request body too large (at most ${bytes} bytes).`,
  methodNotAllowed: (allowed: string) => `Method not allowed; this path accepts ${allowed}.`,
} as const;

// What a status means when an answer carries no code: another deployment of the API may send
// only `{success:false, error}` (docs/api.md, "Errors"). Clients use it as the fallback.

export type StatusInfo = {
  /** What the status means. */
  meaning: string;
  /** What the caller (or the dashboard user) should do. */
  action: string;
  /** Whether a read may be retried automatically (429 with increasing delays, 5xx bounded). */
  retryRead: boolean;
};

export const STATUS_TABLE = {
  400: {
    meaning: 'Invalid payload or invalid contact details.',
    action: 'Correct before retrying.',
    retryRead: false,
  },
  401: { meaning: 'Key missing, revoked or expired.', action: 'Check the key.', retryRead: false },
  403: {
    meaning: 'Wrong scope, no business access, sending allowance exceeded, or the Origin/CSRF rule on POST.',
    action: 'Check scope, business, allowances, Origin header.',
    retryRead: false,
  },
  404: { meaning: 'No such endpoint.', action: 'Check the path and method.', retryRead: false },
  405: {
    meaning: 'Method not allowed on this path.',
    action: 'Check the path and method.',
    retryRead: false,
  },
  409: {
    meaning:
      'Outcome unknown: a request with this idempotency key may already have been sent, or is still in flight.',
    action: 'Check recent requests before sending again.',
    retryRead: false,
  },
  413: { meaning: 'Request body too large.', action: 'Send a smaller body.', retryRead: false },
  415: {
    meaning: 'Request body is not JSON.',
    action: 'Send Content-Type: application/json.',
    retryRead: false,
  },
  422: {
    meaning: 'This idempotency key was already used for a different request.',
    action: 'Start a new request (a new idempotency key).',
    retryRead: false,
  },
  429: {
    meaning: 'Request limit of the key reached.',
    action: 'Wait, retry with increasing delays.',
    retryRead: true,
  },
  500: {
    meaning: 'Server-side failure.',
    action: 'Retry read requests with a bounded delay.',
    retryRead: true,
  },
  502: {
    meaning: 'The upstream service could not be reached, or every delivery failed.',
    action: 'Retry read requests with a bounded delay; check recent requests before resending.',
    retryRead: true,
  },
  503: {
    meaning: 'Server-side failure.',
    action: 'Retry read requests with a bounded delay.',
    retryRead: true,
  },
  504: {
    meaning: 'The upstream service did not answer in time.',
    action: 'Retry read requests with a bounded delay; a send may have gone out, check recent requests.',
    retryRead: true,
  },
} as const satisfies Record<number, StatusInfo>;

/** What a failure means: from its code when it has one of ours, else from its status. */
export function failureInfo(failure: { status: number; code?: string | null }): StatusInfo {
  if (isErrorCode(failure.code)) {
    const info = ERROR_CODES[failure.code];
    return { meaning: info.message, action: info.action, retryRead: info.retry };
  }
  const known = (STATUS_TABLE as Record<number, StatusInfo>)[failure.status];
  if (known) return known;
  if (failure.status >= 500) return STATUS_TABLE[500];
  return {
    meaning: `Request failed (HTTP ${failure.status}).`,
    action: 'Correct before retrying.',
    retryRead: false,
  };
}

/** The codes answered with a status, for documents that list errors by status. */
export function codesWithStatus(status: number): ErrorCode[] {
  return ERROR_CODE_NAMES.filter((code) => ERROR_CODES[code].status === status);
}

/**
 * Whether a failed send may still have reached the customer: decided on the code (its
 * `mayHaveSent`); for an answer without one of our codes, on the status — a conflict or a server
 * failure other than 503 may come after the request went out. The BFF's journal records such a
 * send as `unknown` and the dashboard says "outcome unknown" for it; anything else is "not sent".
 */
export function sendMayHaveGoneOut(failure: { status: number; code?: string | null }): boolean {
  if (isErrorCode(failure.code)) return (ERROR_CODES[failure.code] as ErrorCodeInfo).mayHaveSent === true;
  return failure.status === 409 || (failure.status >= 500 && failure.status !== 503);
}
