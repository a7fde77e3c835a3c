import { ERROR_TABLE, errorInfo } from '@review-desk/shared/errors';
import { ApiError, NetworkError } from './api-error.ts';

// What a failed call means to a dashboard user and what they can do, from the shared error
// table (seed §7), with the server's own message kept: it is often the most specific line.

export type ErrorDescription = {
  title: string;
  /** The server's message, when there is one worth showing. */
  detail: string | null;
  /** What the status means and what to do (shared ERROR_TABLE). */
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
  const info = errorInfo(error.status);
  switch (error.status) {
    case 401:
      return {
        ...base,
        title: error.authRequired ? 'Your session has ended' : 'The server’s API key was refused',
        meaning: error.authRequired ? 'You need to sign in again.' : ERROR_TABLE[401].meaning,
        action: error.authRequired
          ? 'Sign in again.'
          : 'Ask an owner to check the API key configured for Review Desk.',
        retryable: false,
      };
    case 403:
      return { ...base, title: 'Not allowed', meaning: info.meaning, action: info.action, retryable: false };
    case 429:
      return {
        ...base,
        title: 'Too many requests',
        meaning: info.meaning,
        action: 'Wait, then try again.',
        retryable: true,
      };
    default:
      return {
        ...base,
        title: error.status >= 500 ? 'The service failed' : `Request failed (HTTP ${error.status})`,
        meaning: info.meaning,
        action: info.action,
        retryable: error.status >= 500 || info.retryRead,
      };
  }
}
