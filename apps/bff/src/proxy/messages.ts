// The BFF's own words for upstream failures and idempotency conflicts. Plain sentences for the
// dashboard user: never the upstream's host, URL, a stack, or the key.

export const PROXY_MESSAGES = {
  unreachable: 'The review service could not be reached. Try again in a moment.',
  timeout: 'The review service did not answer in time. Try again in a moment.',
  unreadable: 'The review service sent an answer the dashboard cannot read. Try again in a moment.',
  unavailable: (status: number) =>
    `The review service is unavailable (HTTP ${status}). Try again in a moment.`,
  rateLimited: 'The review service’s request limit was reached. Wait a moment and try again.',
  notFound: 'The review service does not offer this (HTTP 404).',
  keyRefused:
    'The review service refused the server’s API key (missing, revoked or expired). An administrator must check the API key the dashboard server uses.',
  keyLacksScope: (scope: string) =>
    `The server’s API key lacks ${scope}. An administrator must give the dashboard server’s API key the ${scope} scope.`,
  refused: (scope: string, upstream: string | null) =>
    upstream
      ? `The review service refused this call: ${upstream}`
      : `The review service refused the server’s API key for this call (HTTP 403): it needs the ${scope} scope, access to the business and sending allowance.`,
  sendTimeout:
    'The review service did not answer in time. Outcome unknown — a request may have been sent; check recent requests before sending again.',
  sendConnectionLost:
    'The connection to the review service was lost before it answered. Outcome unknown — a request may have been sent; check recent requests before sending again.',
  sendUnreadable:
    'The review service accepted the request but its answer could not be read. Outcome unknown — a request may have been sent; check recent requests before sending again.',
  sendUnreachable: 'The review service could not be reached; nothing was sent. Try again in a moment.',
  outcomeUnknown:
    'Outcome unknown — a request may have been sent; check recent requests before sending again.',
  inFlight:
    'This request is still being sent (same Idempotency-Key). Wait for its result instead of sending again.',
  keyReused:
    'This Idempotency-Key was already used for a different request. Start a new request to send different details.',
  keyOtherLocation:
    'This Idempotency-Key was already used for a send at another location; nothing was sent here. Start a new request (a new Idempotency-Key) for this location.',
  keyMissing: 'Idempotency-Key header is required: send a new UUID with each send request.',
} as const;
