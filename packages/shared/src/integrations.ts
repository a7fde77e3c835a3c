import { HOUR_MS } from './time.ts';
import { z } from './zod.ts';

// Requests that send themselves after a sale (docs/settings.md, "Integrations"): a point of sale
// connected per business — Square first — whose completed payments with a customer's phone or
// email become review requests after the business's chosen delay. Automatic sends are off until
// the business turns them on for that source.

export const INTEGRATION_SOURCES = ['square'] as const;
export type IntegrationSource = (typeof INTEGRATION_SOURCES)[number];

/** The header Square signs its notifications with (HMAC-SHA256 of the notification URL and the body). */
export const SQUARE_SIGNATURE_HEADER = 'x-square-hmacsha256-signature';
/** Square retries a notification for up to a day: an older one is stale and refused. */
export const SQUARE_EVENT_MAX_AGE_MS = 24 * HOUR_MS;
/** The path Square posts to; the connection's id follows it (one notification URL per business). */
export const SQUARE_WEBHOOK_PATH = '/webhooks/square';
export const SQUARE_CONNECTION_PATTERN = /^sq_[A-Za-z0-9_-]{16,40}$/;

export const AUTOMATIC_DELAY_MINUTES_DEFAULT = 120;
/** The longest an automatic request waits after the sale: a week. */
export const AUTOMATIC_DELAY_MINUTES_MAX = 7 * 24 * 60;
export const SQUARE_KEY_MAX = 200;

/** Shown wherever automatic sends are turned on: texting needs the customer's consent. */
export const AUTOMATIC_CONSENT_REMINDER =
  'Texting a customer needs their consent: turn automatic sends on only if your customers agreed at the point of sale to hear from you. Each automatic request records the sale its contact came from.';

export const INTEGRATION_MESSAGES = {
  delay: `delayMinutes must be a whole number from 0 to ${AUTOMATIC_DELAY_MINUTES_MAX}`,
  key: `signatureKey must be the webhook subscription's signature key (1 to ${SQUARE_KEY_MAX} characters)`,
  token: `accessToken must be an access token of at most ${SQUARE_KEY_MAX} characters`,
} as const;

const secretText = (message: string) =>
  z.string({ error: message }).check(
    z.trim(),
    z.minLength(1, { error: message }),
    z.maxLength(SQUARE_KEY_MAX, { error: message }),
    z.refine((value) => /^[\x21-\x7e]+$/.test(value), { error: message }),
  );

/** PUT /api/v1/integrations/square: any of the fields; the first PUT must carry the signature key. */
export const squareUpdateSchema = /* @__PURE__ */ z.strictObject({
  /** The signature key of the Square webhook subscription (Developer Console → Webhooks). */
  signatureKey: z.optional(secretText(INTEGRATION_MESSAGES.key)),
  /** An access token with CUSTOMERS_READ, to read a payment's customer; null forgets it. */
  accessToken: z.optional(z.nullable(secretText(INTEGRATION_MESSAGES.token))),
  automaticSends: z.optional(z.boolean({ error: 'automaticSends must be true or false' })),
  delayMinutes: z.optional(
    z
      .number({ error: INTEGRATION_MESSAGES.delay })
      .check(
        z.int({ error: INTEGRATION_MESSAGES.delay }),
        z.gte(0, { error: INTEGRATION_MESSAGES.delay }),
        z.lte(AUTOMATIC_DELAY_MINUTES_MAX, { error: INTEGRATION_MESSAGES.delay }),
      ),
  ),
});
export type SquareUpdate = z.infer<typeof squareUpdateSchema>;

/** One source as GET /api/v1/integrations answers it; secrets never leave the service. */
export const integrationSchema = /* @__PURE__ */ z.object({
  source: z.enum(INTEGRATION_SOURCES),
  connected: z.boolean(),
  /** Where the point of sale posts its notifications (paste it into Square's subscription). */
  notificationUrl: z.nullable(z.string()),
  /** Whether a customer's details can be read from the payment's customer (an access token is set). */
  readsCustomers: z.boolean(),
  automaticSends: z.boolean(),
  delayMinutes: z.number().check(z.int()),
  connectedAt: z.nullable(z.string()),
  /** The last notification that passed the signature check (ISO 8601); null: none yet. */
  lastEventAt: z.nullable(z.string()),
  /** Requests it made so far. */
  requests: z.number().check(z.int()),
});
export type Integration = z.infer<typeof integrationSchema>;

export const integrationsSchema = /* @__PURE__ */ z.object({ integrations: z.array(integrationSchema) });

export const INTEGRATION_PATHS = {
  list: '/api/v1/integrations',
  square: '/api/v1/integrations/square',
} as const;

/**
 * The dashboard's server's routes for Settings → Integrations (owners only): each forwards to the
 * location's upstream route of the same name with the location's key.
 */
export const BFF_INTEGRATION_PATHS = {
  integrations: '/bff/integrations',
  square: '/bff/integrations/square',
  webhooks: '/bff/webhooks',
  webhook: '/bff/webhooks/:id',
  webhookAction: '/bff/webhooks/:id/:action',
  deliveries: '/bff/webhooks/:id/deliveries',
  resend: '/bff/webhooks/:id/deliveries/:delivery/resend',
} as const;

/** The actions on one endpoint the dashboard offers (POST, no body). */
export const WEBHOOK_ACTIONS = ['rotate', 'resume', 'test'] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];
