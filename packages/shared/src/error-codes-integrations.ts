import type { ErrorCodeInfo } from './error-codes.ts';

// The error codes of requests sent later, the point-of-sale integrations and the webhooks.

export const INTEGRATION_ERROR_CODES = {
  request_not_held: {
    from: 'api',
    status: 409,
    message: 'This request is no longer held: it is being sent or has gone out, so it cannot be cancelled.',
    retry: false,
    action: 'Read the request back to see what became of it.',
  },
  webhook_url_refused: {
    from: 'api',
    status: 400,
    message:
      'Webhooks go only to public https addresses: this one is, or resolves to, a private, loopback or link-local address.',
    retry: false,
    action: 'Use the public https address of the receiving system.',
  },
  webhook_limit_reached: {
    from: 'api',
    status: 409,
    message: 'This business has as many webhook endpoints as it may have.',
    retry: false,
    action: 'Remove an endpoint first.',
  },
  webhook_delivery_busy: {
    from: 'api',
    status: 409,
    message: 'This event is being delivered to the endpoint right now.',
    retry: true,
    action: 'Wait a few seconds and read the delivery log again.',
  },
  square_signature_invalid: {
    from: 'api',
    status: 403,
    message: 'This notification is not signed with the connection’s Square signature key.',
    retry: false,
    action:
      'Nothing was recorded. Check that the signature key and the notification URL in Square match those in Settings.',
  },
  square_event_stale: {
    from: 'api',
    status: 400,
    message: 'This notification is older than Square retries them: it is not acted on.',
    retry: false,
    action: 'Nothing was recorded.',
  },
  integration_not_connected: {
    from: 'api',
    status: 404,
    message: 'This point of sale is not connected.',
    retry: false,
    action: 'Connect it in Settings → Integrations with its signature key.',
  },
  integration_unavailable: {
    from: 'api',
    status: 503,
    message: 'The point of sale did not answer in time; its customer could not be read.',
    retry: true,
    action: 'Nothing was recorded: the point of sale sends the notification again.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;
