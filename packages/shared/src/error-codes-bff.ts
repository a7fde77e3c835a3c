import { type ErrorCodeInfo, FIX } from './error-codes.ts';

// The error codes of the BFF: sessions, roles, CSRF, users, the send journal and the upstream.

const ADMIN_KEY = 'An administrator must check the API key the dashboard server uses.';

export const BFF_ERROR_CODES = {
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
  user_rate_limited: {
    from: 'bff',
    status: 429,
    message: 'You are sending requests faster than your share of the service’s limit allows.',
    retry: true,
    action:
      'Wait as long as Retry-After says. Each user has their own share, so colleagues can still work meanwhile.',
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
  password_incorrect: {
    from: 'bff',
    status: 400,
    message: 'The current password is not right.',
    retry: false,
    action: 'Type your current password again; if you no longer know it, an owner can set a new one.',
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

  // Locations: each has its own upstream and key; a user may see all of them or chosen ones.
  location_not_found: {
    from: 'bff',
    status: 404,
    message: 'No such location.',
    retry: false,
    action: 'Choose a location from the list; an owner can add it with the command line.',
  },
  location_forbidden: {
    from: 'bff',
    status: 403,
    message: 'You do not have access to this location.',
    retry: false,
    action: 'Choose one of your locations, or ask an owner for access to this one.',
  },
  location_exists: {
    from: 'bff',
    status: 409,
    message: 'A location with this slug already exists.',
    retry: false,
    action: 'Choose another slug, or rotate the existing location’s key.',
  },
  owner_every_location: {
    from: 'bff',
    status: 409,
    message: 'Owners have every location: their locations cannot be limited.',
    retry: false,
    action: 'Make the user a manager or staff first, then choose their locations.',
  },

  // Sending to a list (docs/bulk.md).
  bulk_not_found: {
    from: 'bff',
    status: 404,
    message: 'No such list send.',
    retry: false,
    action: 'Choose a list send from the list of past ones.',
  },
  bulk_lists_limit: {
    from: 'bff',
    status: 429,
    message: 'Too many list sends are in progress.',
    retry: true,
    action: 'Wait for a list send to finish, or cancel one, then send this list again.',
  },
  bulk_rows_limit: {
    from: 'bff',
    status: 413,
    message: 'Storing this list would keep more rows than allowed.',
    retry: false,
    action: 'Send a shorter list, or wait until older finished lists are deleted.',
  },
  bulk_state_conflict: {
    from: 'bff',
    status: 409,
    message: 'This list send cannot do that in its current state.',
    retry: false,
    action: 'Reload the list send to see its state.',
  },

  // One change per Idempotency-Key: the BFF's send journal, and the service's replies to reviews.
  idempotency_key_missing: {
    from: 'both',
    status: 400,
    message: 'Idempotency-Key header is required: send a new UUID with each send or reply.',
    retry: false,
    action: FIX,
  },
  idempotency_key_invalid: {
    from: 'both',
    status: 400,
    message: 'Idempotency-Key must be a UUID.',
    retry: false,
    action: FIX,
  },
  idempotency_in_flight: {
    from: 'both',
    status: 409,
    message: 'This request is still being sent (same Idempotency-Key).',
    retry: true,
    action: 'Wait for its result instead of sending again.',
    mayHaveSent: true,
  },
  idempotency_mismatch: {
    from: 'both',
    status: 422,
    message: 'This Idempotency-Key was already used for a different request.',
    retry: false,
    action: 'Start a new request (a new Idempotency-Key).',
  },
  outcome_unknown: {
    from: 'both',
    status: 409,
    message: 'Outcome unknown — a request may have been sent.',
    retry: false,
    action: 'Check recent requests (or the review) before sending again.',
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
  settings_not_offered: {
    from: 'bff',
    status: 404,
    message:
      'The review service this dashboard is connected to does not offer settings: message wording, sending hours and reminders are managed by that service.',
    retry: false,
    action: 'Change them where that service manages them.',
  },
  widget_not_offered: {
    from: 'bff',
    status: 404,
    message: 'The review service this dashboard is connected to does not offer a website widget.',
    retry: false,
    action: 'Use the widget that service offers, if any.',
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
} as const satisfies Record<string, ErrorCodeInfo>;
