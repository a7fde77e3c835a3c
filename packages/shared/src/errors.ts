// Seed §7: status → meaning → caller action, as data. The API picks its statuses from here,
// the BFF words its own failures from here, and the dashboard tells users what to do from here.

export type ErrorInfo = {
  /** What the status means. */
  meaning: string;
  /** What the caller (or the dashboard user) should do. */
  action: string;
  /** Whether a read may be retried automatically (seed §7: 429 with increasing delays, 5xx bounded). */
  retryRead: boolean;
};

export const ERROR_TABLE = {
  400: {
    meaning: 'Invalid payload or invalid contact details.',
    action: 'Correct before retrying.',
    retryRead: false,
  },
  401: {
    meaning: 'Key missing, revoked or expired.',
    action: 'Check the key.',
    retryRead: false,
  },
  403: {
    meaning: 'Wrong scope, no business access, sending allowance exceeded, or the Origin/CSRF rule on POST.',
    action: 'Check scope, business, allowances, Origin header.',
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
  503: {
    meaning: 'Server-side failure.',
    action: 'Retry read requests with a bounded delay.',
    retryRead: true,
  },
  // Not in the seed's table: statuses of our own service and of the BFF.
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
  502: {
    meaning: 'The upstream service could not be reached, or every delivery failed.',
    action: 'Retry read requests with a bounded delay; check recent requests before resending.',
    retryRead: true,
  },
  504: {
    meaning: 'The upstream service did not answer in time.',
    action: 'Retry read requests with a bounded delay; a send may have gone out, check recent requests.',
    retryRead: true,
  },
} as const satisfies Record<number, ErrorInfo>;

export function errorInfo(status: number): ErrorInfo {
  const known = (ERROR_TABLE as Record<number, ErrorInfo>)[status];
  if (known) return known;
  if (status >= 500) return ERROR_TABLE[500];
  return {
    meaning: `Request failed (HTTP ${status}).`,
    action: 'Correct before retrying.',
    retryRead: false,
  };
}

/**
 * Error messages of our service that callers and tests recognise. Seed §7: "exact error message
 * texts: not shown"; these are ours.
 */
export const MESSAGES = {
  keyMissing: 'API key missing: send it in the X-API-Key header or as Authorization: Bearer <key>.',
  keyInvalid: 'API key invalid, revoked or expired.',
  keyInQuery:
    'API keys are not accepted in the query string; send the key in the X-API-Key or Authorization header.',
  scopeMissing: (scope: string) => `This API key lacks the ${scope} scope.`,
  businessAccess: 'This API key has no access to its business: the business is suspended.',
  originRefused:
    'Forbidden: POST requires an Origin header matching the application host (browser-style CSRF rule).',
  allowanceExceeded: (limit: number) =>
    `Sending allowance exceeded: this business may send ${limit} review requests per calendar month.`,
  rateLimited: (retryAfterSeconds: number) =>
    `Request limit of this key reached; retry after ${retryAfterSeconds} seconds.`,
  frequencyCap: (days: number) => `Already sent to this contact recently. Cap is ${days} days.`,
  optedOut: 'This contact opted out of review requests.',
  allDeliveriesFailed: 'Every delivery failed; no message reached the customer.',
  malformedJson: 'Request body is not valid JSON.',
  notJson: 'Request body must be JSON (Content-Type: application/json).',
  bodyTooLarge: (bytes: number) => `Request body too large (at most ${bytes} bytes).`,
  notFound: 'Not found.',
  methodNotAllowed: (allowed: string) => `Method not allowed; this path accepts ${allowed}.`,
  internal: 'Internal server error.',
} as const;
