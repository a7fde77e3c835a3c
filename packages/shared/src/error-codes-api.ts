import type { ErrorCodeInfo } from './error-codes.ts';

// The error codes of the Review Collection service: its key, scope and business rules.

export const API_ERROR_CODES = {
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
    message: 'This customer was sent a review request recently.',
    retry: false,
    action:
      'Nothing was sent. Ask again once the time between requests has passed, or share a review link instead.',
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
  test_send_limited: {
    from: 'api',
    status: 429,
    message: 'Too many test messages for this business in the last hour.',
    retry: true,
    action: 'Nothing was sent. Wait as long as Retry-After says, then send the test again.',
  },
  webhook_signature_invalid: {
    from: 'api',
    status: 403,
    message: 'This webhook call is not signed by the service’s Twilio account.',
    retry: false,
    action:
      'Nothing was recorded. Twilio signs its calls with the account’s Auth Token over PUBLIC_ORIGIN and the path: check both.',
  },
  business_exists: {
    from: 'api',
    status: 409,
    message: 'A business with this slug already exists.',
    retry: false,
    action: 'Choose another slug.',
  },
  // Answering reviews (docs/api.md, "Answering reviews").
  review_changed: {
    from: 'api',
    status: 409,
    message:
      'Someone changed this review since you read it; nothing was changed. Its current state is in `current`.',
    retry: false,
    action: 'Read the current reply, then answer again with its version if yours should still replace it.',
  },
  transition_refused: {
    from: 'api',
    status: 409,
    message: 'This change does not apply to the review in its present status.',
    retry: false,
    action:
      'Read the review’s status: withdraw a reply to reopen it; only a review with a reply can have it withdrawn.',
  },
  reply_in_flight: {
    from: 'api',
    status: 409,
    message: 'The previous reply to this review is still being delivered; nothing was changed.',
    retry: true,
    action: 'Wait a moment for its outcome, then read the review again.',
  },
  reply_not_offered: {
    from: 'api',
    status: 409,
    message:
      'Reviews from this platform are answered on the platform itself: this service cannot post a reply there.',
    retry: false,
    action: 'Answer it on the platform, then mark it ignored here so it leaves the inbox.',
  },
  google_not_configured: {
    from: 'api',
    status: 409,
    message:
      'This service is not set up for Google Business Profile: its operator has not given it an OAuth client (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET).',
    retry: false,
    action: 'Ask the service’s operator to set up the Google OAuth client, then connect again.',
  },
  google_not_connected: {
    from: 'api',
    status: 409,
    message:
      'This business is not connected to Google Business Profile (or the connection needs its owner): Google reviews cannot be answered from here.',
    retry: false,
    action: 'An owner connects the Google location in Settings, then answers again.',
  },
  business_not_found: {
    from: 'api',
    status: 404,
    message: 'No business with this slug.',
    retry: false,
    action: 'Check the slug.',
  },
  widget_not_found: {
    from: 'api',
    status: 404,
    message: 'No website widget with this id.',
    retry: false,
    action: 'Copy the snippet again from Settings → Website widget: the id in it is not this service’s.',
  },
  review_not_found: {
    from: 'api',
    status: 404,
    message: 'No review with this id in this business.',
    retry: false,
    action: 'Check the review’s id.',
  },
  review_synced: {
    from: 'api',
    status: 409,
    message:
      'This review was synced from another site: the widget never shows it, so there is nothing to hide. Report it on that site.',
    retry: false,
    action: 'Report the review where it was written.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;
