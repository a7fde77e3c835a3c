// The error codes both services answer with: the request's shape, body and target, and the
// service's own state. With error-codes-api.ts and error-codes-bff.ts, the one table in
// errors.ts (ERROR_CODES).

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

export const FIX = 'Correct the request before sending it again.';

export const COMMON_ERROR_CODES = {
  // The request itself: its shape, body and target (both services).
  malformed_request: {
    from: 'both',
    status: 400,
    message: 'Malformed HTTP request.',
    retry: false,
    action: FIX,
  },
  host_missing: {
    from: 'both',
    status: 400,
    message: 'The request has no Host header.',
    retry: false,
    action: FIX,
  },
  expectation_failed: {
    from: 'both',
    status: 417,
    message: 'Unsupported Expect header: only 100-continue is understood.',
    retry: false,
    action: 'Send the request without that Expect header.',
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
  metrics_refused: {
    from: 'both',
    status: 403,
    message: 'Metrics are served to loopback callers, or with Authorization: Bearer <METRICS_TOKEN>.',
    retry: false,
    action: 'Scrape from the same host, or send the metrics token.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;
