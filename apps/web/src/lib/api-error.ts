import type { ApiFailure } from '@review-desk/shared/answer';
import type { ErrorCode, StatusInfo } from '@review-desk/shared/errors';

/**
 * An HTTP answer that was not a success envelope (or a success whose data the shared schema
 * refused). Carries what the UI needs to say what to do: status, code, server message, field
 * messages, Retry-After, and whether the BFF asked for a new sign-in.
 */
export class ApiError extends Error {
  readonly status: number;
  /** What the failure is (the shared error table); null when the answer carried none of ours. */
  readonly code: ErrorCode | null;
  readonly fields: Record<string, string> | undefined;
  readonly retryAfterSeconds: number | null;
  /** The body was not the API's envelope (or the data did not match the contract). */
  readonly malformed: boolean;
  /** The BFF's own 401: the session is gone, sign in again (not an upstream key problem). */
  readonly authRequired: boolean;
  readonly headers: Headers;
  /** When the answer arrived: countdowns run from here, not from when the message is shown. */
  readonly receivedAt: number;
  /** What it means, what to do and whether a read may be retried (the shared error table). */
  readonly info: StatusInfo;

  constructor(failure: ApiFailure, authRequired: boolean, info: StatusInfo) {
    super(failure.error);
    this.name = 'ApiError';
    this.status = failure.status;
    this.code = failure.code;
    this.fields = failure.fields;
    this.retryAfterSeconds = failure.retryAfterSeconds;
    this.malformed = failure.malformed;
    this.authRequired = authRequired;
    this.headers = failure.headers;
    this.receivedAt = Date.now();
    this.info = info;
  }
}

/** fetch() itself failed: offline, connection refused or reset. Nothing is known about the answer. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('The dashboard could not reach its server.', { cause });
    this.name = 'NetworkError';
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function isAuthRequired(error: unknown): boolean {
  return error instanceof ApiError && error.authRequired;
}
