import {
  API_KEY_HEADER,
  analyticsOutputSchema,
  CHANNEL_REQUIRES,
  codedErrorEnvelopeSchema,
  DAYS_DEFAULT,
  DAYS_MAX,
  DAYS_MIN,
  ENDPOINTS,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  METRIC_DEFINITIONS,
  PAGE_MIN,
  PLATFORMS,
  RATING_MAX,
  RATING_MIN,
  REVIEW_ORDERS,
  REVIEW_STATUSES,
  reviewListOutputSchema,
  SEND_STATUS_MEANINGS,
  sendRequestSchema,
  sendResultSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { z } from 'zod';
import { deliveryOpenApi } from '../delivery/openapi.ts';
import { replyOpenApi } from '../reviews/reply/openapi.ts';
import { settingsOpenApi } from '../settings/openapi.ts';
import { failure, type JsonSchema, schemaOf } from './schema.ts';

// OpenAPI 3.1 generated from the shared zod schemas (zod 4's toJSONSchema emits JSON Schema
// 2020-12, which OpenAPI 3.1 uses as is). Parameters are described from the shared limits.

const integer = (name: string, min: number, max: number | undefined, description: string, dflt?: number) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: {
    type: 'integer',
    minimum: min,
    ...(max !== undefined ? { maximum: max } : {}),
    ...(dflt !== undefined ? { default: dflt } : {}),
  },
});

export function buildOpenApi(serverUrl: string) {
  const sendBody = schemaOf(sendRequestSchema, 'input') as { properties: Record<string, JsonSchema> };
  sendBody.properties.customerEmail = { ...sendBody.properties.customerEmail, format: 'email' };
  sendBody.properties.customerPhone = {
    ...sendBody.properties.customerPhone,
    description: 'International format with a leading + and country code; normalised to E.164.',
    examples: ['+14155552671'],
  };
  const channelRules = Object.entries(CHANNEL_REQUIRES)
    .map(
      ([channel, needs]) =>
        `\`${channel}\`: ${[needs.phone && 'customerPhone', needs.email && 'customerEmail'].filter(Boolean).join(' and ') || 'no contact (creates a shareable link, sends no message)'}`,
    )
    .join('; ');

  const authFailures = { '401': failure(401), '403': failure(403), '429': failure(429) };
  const settings = settingsOpenApi();
  const delivery = deliveryOpenApi();
  const replies = replyOpenApi();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Review Collection Developer API',
      version: '1.0.0',
      description:
        'Send review requests, list the reviews of the business tied to the API key, and read aggregate analytics. ' +
        'Every response is the envelope {success:true, data} or {success:false, error, code}.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKeyHeader: [] }, { bearer: [] }],
    paths: {
      [ENDPOINTS.send.path]: {
        post: {
          operationId: 'sendReviewRequest',
          summary: 'Send a review request by SMS, email or both, or create a shareable link',
          description: `Scope: \`${ENDPOINTS.send.scope}\`. Channel rules: ${channelRules}. Status \`sent\`: ${SEND_STATUS_MEANINGS.sent} With channel \`both\`, check \`warning\`: one delivery may have failed. There is no idempotency key: a resend after a timeout may create a second request. A POST needs an Origin header matching the application host unless the deployment exempts API-key traffic.`,
          requestBody: { required: true, content: { 'application/json': { schema: sendBody } } },
          responses: {
            '200': {
              description: 'Request created and at least one delivery accepted (or a link created).',
              content: { 'application/json': { schema: envelopeOf('SendResult') } },
            },
            '400': failure(400),
            ...authFailures,
            '413': failure(413),
            '415': failure(415),
            '502': failure(502),
          },
        },
      },
      [ENDPOINTS.reviews.path]: {
        get: {
          operationId: 'listReviews',
          summary: 'List reviews, newest first',
          description: `Scope: \`${ENDPOINTS.reviews.scope}\`. Stop paging when \`reviews\` is empty or page × limit ≥ total. Unknown or repeated parameters are refused.`,
          parameters: [
            integer('page', PAGE_MIN, undefined, 'Page number, from 1.', PAGE_MIN),
            integer('limit', LIMIT_MIN, LIMIT_MAX, 'Page size.', LIMIT_DEFAULT),
            {
              name: 'status',
              in: 'query',
              required: false,
              description: 'Only reviews with this status.',
              schema: { type: 'string', enum: [...REVIEW_STATUSES] },
            },
            integer('minRating', RATING_MIN, RATING_MAX, 'Only reviews rated at least this.'),
            integer('maxRating', RATING_MIN, RATING_MAX, 'Extension: only reviews rated at most this.'),
            {
              name: 'platform',
              in: 'query',
              required: false,
              description:
                'Extension: only reviews of this platform (`direct`: left through the customer page).',
              schema: { type: 'string', enum: [...PLATFORMS] },
            },
            {
              name: 'order',
              in: 'query',
              required: false,
              description: 'Extension: `newest` first (the default) or `oldest` first.',
              schema: { type: 'string', enum: [...REVIEW_ORDERS] },
            },
          ],
          responses: {
            '200': {
              description: 'One page of reviews.',
              content: { 'application/json': { schema: envelopeOf('ReviewList') } },
            },
            '400': failure(400),
            ...authFailures,
          },
        },
      },
      [ENDPOINTS.analytics.path]: {
        get: {
          operationId: 'getAnalytics',
          summary: 'Aggregate review and request activity over the last `days` days',
          description: `Scope: \`${ENDPOINTS.analytics.scope}\`. The window is the last \`days\` UTC calendar days, today included. ${Object.entries(
            METRIC_DEFINITIONS,
          )
            .map(([k, v]) => `**${k}**: ${v}`)
            .join(' ')}`,
          parameters: [integer('days', DAYS_MIN, DAYS_MAX, 'Window length in days.', DAYS_DEFAULT)],
          responses: {
            '200': {
              description: 'Aggregates for the window.',
              content: { 'application/json': { schema: envelopeOf('Analytics') } },
            },
            '400': failure(400),
            ...authFailures,
          },
        },
      },
      ...settings.paths,
      ...delivery.paths,
      ...replies.paths,
    },
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer', description: `Or the header ${API_KEY_HEADER}.` },
      },
      schemas: {
        SendResult: schemaOf(sendResultSchema, 'output'),
        ReviewList: schemaOf(reviewListOutputSchema, 'output'),
        Analytics: schemaOf(analyticsOutputSchema, 'output'),
        ...settings.schemas,
        ...delivery.schemas,
        ...replies.schemas,
        ErrorEnvelope: schemaOf(codedErrorEnvelopeSchema, 'output'),
        SuccessEnvelope: schemaOf(successEnvelopeSchema(z.object({})), 'output'),
      },
    },
  };
}

function envelopeOf(name: string) {
  return {
    type: 'object',
    required: ['success', 'data'],
    properties: { success: { const: true }, data: { $ref: `#/components/schemas/${name}` } },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApi>;
