import { ApiError, NetworkError } from './api-error.ts';

// What a failed call means to a dashboard user and what they can do, from the shared error
// table — by the answer's code, or by its status when it carries none of ours — with the
// server's own message kept: it is often the most specific line.

export type ErrorDescription = {
  title: string;
  /** The server's message, when there is one worth showing. */
  detail: string | null;
  /** What the failure means and what to do (the shared error table). */
  meaning: string;
  action: string;
  /** Seconds the server asked us to wait (429), if it said. */
  retryAfterSeconds: number | null;
  receivedAt: number;
  /** Whether trying again can help. */
  retryable: boolean;
};

export function describeError(error: unknown): ErrorDescription {
  const now = Date.now();
  if (error instanceof NetworkError) {
    return {
      title: 'Could not reach Review Desk',
      detail: null,
      meaning: 'The connection to the dashboard server failed (offline, or the server is down).',
      action: 'Check your connection, then try again.',
      retryAfterSeconds: null,
      receivedAt: now,
      retryable: true,
    };
  }
  if (!(error instanceof ApiError)) {
    return {
      title: 'Something went wrong',
      detail: error instanceof Error ? error.message : null,
      meaning: 'An unexpected error happened in the dashboard.',
      action: 'Reload the page; if it keeps happening, tell your administrator.',
      retryAfterSeconds: null,
      receivedAt: now,
      retryable: true,
    };
  }
  const base = {
    detail: error.message,
    retryAfterSeconds: error.retryAfterSeconds,
    receivedAt: error.receivedAt,
  };
  if (error.malformed && error.status < 400) {
    return {
      ...base,
      title: 'Unreadable answer from the service',
      meaning: 'The service answered with data this dashboard does not understand.',
      action: 'Try again later; if it persists, the API deployment may not match this dashboard.',
      retryable: true,
    };
  }
  const info = error.info;
  // With one of our codes, the server's message already says what happened: the table adds what
  // to do. Without one, the status's meaning is added to the message.
  const described =
    error.code === null
      ? { ...base, meaning: info.meaning, action: info.action }
      : { ...base, meaning: '', action: info.action };
  switch (error.code) {
    case 'session_missing':
    case 'session_expired':
      return { ...described, title: 'Your session has ended', action: 'Sign in again.', retryable: false };
    case 'upstream_key_refused':
      return {
        ...described,
        title: 'The server’s API key was refused',
        action: 'Ask an owner to check the API key configured for Review Desk.',
        retryable: false,
      };
    case 'delivery_failed':
      return { ...described, title: 'Not sent: every delivery failed', retryable: true };
    case 'validation_failed':
      return { ...described, title: 'Not accepted: check what was entered', retryable: false };
  }
  switch (error.status) {
    case 401:
      return {
        ...described,
        title: error.authRequired ? 'Your session has ended' : 'The server’s API key was refused',
        meaning: error.authRequired ? 'You need to sign in again.' : described.meaning,
        action: error.authRequired
          ? 'Sign in again.'
          : 'Ask an owner to check the API key configured for Review Desk.',
        retryable: false,
      };
    case 403:
      return { ...described, title: 'Not allowed', retryable: false };
    case 429:
      return { ...described, title: 'Too many requests', action: 'Wait, then try again.', retryable: true };
    default:
      return {
        ...described,
        title: error.status >= 500 ? 'The service failed' : `Request failed (HTTP ${error.status})`,
        retryable: error.status >= 500 || info.retryRead,
      };
  }
}
