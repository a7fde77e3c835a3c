// Error codes: every failure envelope of the service and the BFF carries one of these in `code`,
// beside the human message in `error` (docs/api.md, "Errors"). Callers decide on the code; the
// message is for people and may change. Each code has one status, a default message, whether
// trying the same request again can help, and what the caller (or the dashboard user) may do.

export type ErrorCodeInfo = {
  /** Which service answers with it: the Review Collection service, the BFF, or both. */
  from: 'api' | 'bff' | 'both';
  status: number;
  /** The message when nothing more specific is said. */
  message: string;
  /** Whether the same request, sent again later (after Retry-After, if given), may succeed. */
  retry: boolean;
  /** What the caller or the dashboard user may do. */
  action: string;
  /**
   * For an answer to a send: the request may still have reached the customer (the outcome is
   * unknown). Absent: nothing was sent.
   */
  mayHaveSent?: true;
};

const FIX = 'Correct the request before sending it again.';
const ADMIN_KEY = 'An administrator must check the API key the dashboard server uses.';

export const ERROR_CODES = {
  // The request itself: its shape, body and target (both services).
  malformed_request: {
    from: 'both',
    status: 400,
    message: 'Malformed HTTP request.',
    retry: false,
    action: FIX,
  },
  headers_too_large: {
    from: 'both',
    status: 431,
    message: 'Request headers too large.',
    retry: false,
    action: FIX,
  },
  malformed_url: {
    from: 'both',
    status: 400,
    message: 'Malformed URL: a path segment is not valid percent-encoding.',
    retry: false,
    action: FIX,
  },
  bad_target: { from: 'bff', status: 400, message: 'Bad request target.', retry: false, action: FIX },
  not_found: {
    from: 'both',
    status: 404,
    message: 'Not found.',
    retry: false,
    action: 'Check the path and method.',
  },
  method_not_allowed: {
    from: 'both',
    status: 405,
    message: 'Method not allowed on this path.',
    retry: false,
    action: 'Use a method the Allow header names.',
  },
  malformed_json: {
    from: 'both',
    status: 400,
    message: 'Request body is not valid JSON.',
    retry: false,
    action: FIX,
  },
  not_json: {
    from: 'both',
    status: 415,
    message: 'Request body must be JSON (Content-Type: application/json).',
    retry: false,
    action: 'Send Content-Type: application/json and a UTF-8 JSON body.',
  },
  encoding_unsupported: {
    from: 'both',
    status: 415,
    message: 'Compressed request bodies are not accepted.',
    retry: false,
    action: 'Send the body uncompressed.',
  },
  body_too_large: {
    from: 'both',
    status: 413,
    message: 'Request body too large.',
    retry: false,
    action: 'Send a smaller body.',
  },
  body_not_allowed: {
    from: 'bff',
    status: 400,
    message: 'GET requests must not carry a body.',
    retry: false,
    action: 'Send the request without a body.',
  },
  validation_failed: {
    from: 'both',
    status: 400,
    message: 'Invalid request.',
    retry: false,
    action: 'Correct the fields named in the message before sending again.',
  },

  // The service's key, scope and business rules.
  key_missing: {
    from: 'api',
    status: 401,
    message: 'API key missing: send it in the X-API-Key header or as Authorization: Bearer <key>.',
    retry: false,
    action: 'Send an API key.',
  },
  key_invalid: {
    from: 'api',
    status: 401,
    message: 'API key invalid, revoked or expired.',
    retry: false,
    action: 'Check the key: it may have been revoked, rotated or have expired.',
  },
  key_in_query: {
    from: 'api',
    status: 400,
    message:
      'API keys are not accepted in the query string; send the key in the X-API-Key or Authorization header.',
    retry: false,
    action: 'Move the key to a header, and rotate it: URLs end up in logs and browser history.',
  },
  scope_missing: {
    from: 'api',
    status: 403,
    message: 'This API key lacks the scope this endpoint needs.',
    retry: false,
    action: 'Use a key with the scope named in the message.',
  },
  business_suspended: {
    from: 'api',
    status: 403,
    message: 'This API key has no access to its business: the business is suspended.',
    retry: false,
    action: 'Contact the service operator.',
  },
  origin_refused: {
    from: 'both',
    status: 403,
    message:
      'Forbidden: POST requires an Origin header matching the application host (browser-style CSRF rule).',
    retry: false,
    action: 'Call from the application’s own origin (or one the deployment allows).',
  },
  rate_limited: {
    from: 'both',
    status: 429,
    message: 'Request limit reached.',
    retry: true,
    action: 'Wait as long as Retry-After says, then retry with increasing delays.',
  },
  allowance_exceeded: {
    from: 'api',
    status: 403,
    message: 'Sending allowance exceeded for this calendar month.',
    retry: false,
    action: 'Nothing was sent. Wait for next month or raise the allowance; links can still be created.',
  },
  frequency_capped: {
    from: 'api',
    status: 400,
    message: 'Already sent to this contact recently.',
    retry: false,
    action: 'Nothing was sent. Wait until the frequency cap has passed for this contact.',
  },
  opted_out: {
    from: 'api',
    status: 400,
    message: 'This contact opted out of review requests.',
    retry: false,
    action: 'Nothing was sent. Do not send to this contact.',
  },
  delivery_failed: {
    from: 'api',
    status: 502,
    message: 'Every delivery failed; no message reached the customer.',
    retry: true,
    action: 'Nothing was sent. Check the contact details named in the message, then send again.',
  },
  business_exists: {
    from: 'api',
    status: 409,
    message: 'A business with this slug already exists.',
    retry: false,
    action: 'Choose another slug.',
  },
  business_not_found: {
    from: 'api',
    status: 404,
    message: 'No business with this slug.',
    retry: false,
    action: 'Check the slug.',
  },

  // The BFF: sessions, roles, CSRF and users.
  session_missing: {
    from: 'bff',
    status: 401,
    message: 'Sign in to continue.',
    retry: false,
    action: 'Sign in.',
  },
  session_expired: {
    from: 'bff',
    status: 401,
    message: 'Your session has expired. Sign in again.',
    retry: false,
    action: 'Sign in again.',
  },
  role_forbidden: {
    from: 'bff',
    status: 403,
    message: 'Your role does not allow this.',
    retry: false,
    action: 'Ask an owner for a role that allows it.',
  },
  host_refused: {
    from: 'bff',
    status: 400,
    message: 'This server answers only at its public address: the request was addressed to another host.',
    retry: false,
    action: 'Use the dashboard’s own address (PUBLIC_URL).',
  },
  csrf_refused: {
    from: 'bff',
    status: 403,
    message: 'Forbidden: cross-site request refused.',
    retry: false,
    action: 'Use the dashboard itself; a page on another site cannot act for you.',
  },
  login_failed: {
    from: 'bff',
    status: 401,
    message: 'Email or password is incorrect.',
    retry: false,
    action: 'Check the email and password; an owner can reset a forgotten password.',
  },
  login_throttled: {
    from: 'bff',
    status: 429,
    message: 'Too many sign-in attempts. Try again later.',
    retry: true,
    action: 'Wait as long as Retry-After says before signing in again.',
  },
  user_not_found: {
    from: 'bff',
    status: 404,
    message: 'No such user.',
    retry: false,
    action: 'Reload the list of users.',
  },
  user_exists: {
    from: 'bff',
    status: 409,
    message: 'A user with this email already exists.',
    retry: false,
    action: 'Use another email, or change the existing user.',
  },
  last_owner: {
    from: 'bff',
    status: 409,
    message: 'This is the last owner.',
    retry: false,
    action: 'Make another user owner first.',
  },

  // The BFF's send journal (one send per Idempotency-Key).
  idempotency_key_missing: {
    from: 'bff',
    status: 400,
    message: 'Idempotency-Key header is required: send a new UUID with each send request.',
    retry: false,
    action: FIX,
  },
  idempotency_key_invalid: {
    from: 'bff',
    status: 400,
    message: 'Idempotency-Key must be a UUID.',
    retry: false,
    action: FIX,
  },
  idempotency_in_flight: {
    from: 'bff',
    status: 409,
    message: 'This request is still being sent (same Idempotency-Key).',
    retry: true,
    action: 'Wait for its result instead of sending again.',
    mayHaveSent: true,
  },
  idempotency_mismatch: {
    from: 'bff',
    status: 422,
    message: 'This Idempotency-Key was already used for a different request.',
    retry: false,
    action: 'Start a new request (a new Idempotency-Key).',
  },
  outcome_unknown: {
    from: 'bff',
    status: 409,
    message: 'Outcome unknown — a request may have been sent.',
    retry: false,
    action: 'Check recent requests before sending again.',
    mayHaveSent: true,
  },

  // The BFF's upstream (the Review Collection service it forwards to).
  upstream_unreachable: {
    from: 'bff',
    status: 502,
    message: 'The review service could not be reached. Try again in a moment.',
    retry: true,
    action: 'Try again in a moment; nothing was sent.',
  },
  upstream_timeout: {
    from: 'bff',
    status: 504,
    message: 'The review service did not answer in time.',
    retry: true,
    action: 'Try again in a moment; after a send, check recent requests first.',
    mayHaveSent: true,
  },
  upstream_connection_lost: {
    from: 'bff',
    status: 502,
    message: 'The connection to the review service was lost before it answered.',
    retry: true,
    action: 'Try again in a moment; after a send, check recent requests first.',
    mayHaveSent: true,
  },
  upstream_unreadable: {
    from: 'bff',
    status: 502,
    message: 'The review service sent an answer the dashboard cannot read.',
    retry: true,
    action: 'Try again in a moment; after a send, check recent requests first.',
    mayHaveSent: true,
  },
  upstream_key_refused: {
    from: 'bff',
    status: 401,
    message: 'The review service refused the server’s API key (missing, revoked or expired).',
    retry: false,
    action: ADMIN_KEY,
  },
  upstream_scope_missing: {
    from: 'bff',
    status: 403,
    message: 'The server’s API key lacks the scope this call needs.',
    retry: false,
    action: `${ADMIN_KEY} It needs the scope named in the message.`,
  },
  upstream_refused: {
    from: 'bff',
    status: 403,
    message: 'The review service refused this call.',
    retry: false,
    action: 'Read the message: the business, its allowance or the key’s access must change first.',
  },

  // Either service, about itself.
  internal: {
    from: 'both',
    status: 500,
    message: 'Internal server error.',
    retry: true,
    action: 'Retry reads with a bounded delay; after a send, check recent requests first.',
    mayHaveSent: true,
  },
  unavailable: {
    from: 'both',
    status: 503,
    message: 'Service temporarily unavailable.',
    retry: true,
    action: 'Retry with a bounded delay.',
  },
  not_ready: {
    from: 'both',
    status: 503,
    message: 'Not ready.',
    retry: true,
    action: 'Wait until the checks named in the answer are ok.',
  },
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
  frequencyCap: (days: number) => `Already sent to this contact recently. Cap is ${days} days.`,
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
