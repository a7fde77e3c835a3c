import {
  GOOGLE_ENDPOINT,
  googleConnectBodySchema,
  googleConnectionSchema,
  REPLY_TEXT_MAX,
  REVIEW_ENDPOINTS,
  REVIEW_TRANSITIONS,
  replyBodySchema,
  reviewDetailSchema,
  statusBodySchema,
} from '@review-desk/shared';
import { failure, schemaOf } from '../../openapi/schema.ts';

// Answering reviews and the Google connection in the OpenAPI document, from the shared schemas:
// extensions (`x-extension`), which clients must not require.

const EXTENSION = 'Extension: clients must not require it (another deployment answers 404).';
const answer = (schema: string) => (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['success', 'data'],
        properties: { success: { const: true }, data: { $ref: `#/components/schemas/${schema}` } },
      },
    },
  },
});
const reviewAnswer = answer('ReviewDetail');
const connectionAnswer = answer('GoogleConnection');
const conflict = {
  description:
    '`review_changed`: the review changed since the version given (the envelope’s `current` is the review as it is now); `transition_refused`: the change does not apply to its status; `reply_in_flight`: its previous reply is still being delivered; `google_not_connected`, `reply_not_offered`; `idempotency_in_flight`, `outcome_unknown`: this Idempotency-Key’s reply is under way, or its outcome was lost (it is never delivered again by itself).',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
};
const id = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The review’s id (`rev_<n>`).',
  schema: { type: 'string' },
};
const idempotency = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description: 'A UUID per intent: a retry of the same intent reuses it and is never delivered twice.',
  schema: { type: 'string', format: 'uuid' },
};
const transitions = Object.entries(REVIEW_TRANSITIONS)
  .map(([action, t]) => `${action}: ${t.from.join('/')} → ${t.to}`)
  .join('; ');
const auth = { '401': failure(401), '403': failure(403), '429': failure(429) };

export function replyOpenApi() {
  const { one, status, reply, withdraw } = REVIEW_ENDPOINTS;
  return {
    paths: {
      [one.path.replace(':id', '{id}')]: {
        get: {
          operationId: 'getReview',
          summary: 'One review: its reply, who answered and when, its source and version (extension)',
          description: `${EXTENSION} Scope: \`${one.scope}\`.`,
          'x-extension': true,
          parameters: [id],
          responses: { '200': reviewAnswer('The review.'), '404': failure(404), ...auth },
        },
        patch: {
          operationId: 'setReviewStatus',
          summary: 'Ignore or reopen a review (extension)',
          description: `${EXTENSION} Scope: \`${status.scope}\`. Transitions: ${transitions}. Asking for the status it has changes nothing (200).`,
          'x-extension': true,
          parameters: [id],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(statusBodySchema, 'input') } },
          },
          responses: {
            '200': reviewAnswer('The review as it now is.'),
            '400': failure(400),
            '404': failure(404),
            '409': conflict,
            ...auth,
          },
        },
      },
      [reply.path.replace(':id', '{id}')]: {
        post: {
          operationId: 'replyToReview',
          summary: 'Create or replace the business’s reply (extension)',
          description: `${EXTENSION} Scope: \`${reply.scope}\`. At most ${REPLY_TEXT_MAX} characters. A review left through the customer page: the reply goes privately to the customer by their request’s channel (sending hours, opt-outs, receipts) and the review is responded. A Google review: the reply is posted to Google and the review is responded only once Google took it. \`data.reply.state\` says how far it got. Without \`version\` a reply never overwrites one.`,
          'x-extension': true,
          parameters: [id, idempotency],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(replyBodySchema, 'input') } },
          },
          responses: {
            '200': reviewAnswer('The review as it now is.'),
            '400': failure(400),
            '404': failure(404),
            '409': conflict,
            ...auth,
          },
        },
        delete: {
          operationId: 'withdrawReply',
          summary: 'Withdraw the business’s reply: the review is pending again (extension)',
          description: `${EXTENSION} Scope: \`${withdraw.scope}\`. A Google reply is deleted on Google; a message already sent to a customer cannot be taken back.`,
          'x-extension': true,
          parameters: [
            id,
            idempotency,
            { name: 'version', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
          ],
          responses: {
            '200': reviewAnswer('The review as it now is.'),
            '404': failure(404),
            '409': conflict,
            ...auth,
          },
        },
      },
      [GOOGLE_ENDPOINT.path]: {
        get: {
          operationId: 'getGoogleConnection',
          summary: 'The business’s Google Business Profile connection, never its token (extension)',
          description: `${EXTENSION} Scope: \`${GOOGLE_ENDPOINT.read}\`.`,
          'x-extension': true,
          responses: {
            '200': connectionAnswer('The connection (`connection` is null when there is none).'),
            ...auth,
          },
        },
        put: {
          operationId: 'connectGoogle',
          summary: 'Connect a Google location: account id, location id, OAuth refresh token (extension)',
          description: `${EXTENSION} Scope: \`${GOOGLE_ENDPOINT.write}\`. The token is tried at Google’s token endpoint at once (refused: 400 naming refreshToken) and kept encrypted.`,
          'x-extension': true,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(googleConnectBodySchema, 'input') } },
          },
          responses: { '200': connectionAnswer('The connection.'), '400': failure(400), ...auth },
        },
        delete: {
          operationId: 'disconnectGoogle',
          summary: 'Disconnect the Google location (extension)',
          description: `${EXTENSION} Scope: \`${GOOGLE_ENDPOINT.write}\`.`,
          'x-extension': true,
          responses: { '200': connectionAnswer('No connection any more.'), ...auth },
        },
      },
    },
    schemas: {
      ReviewDetail: schemaOf(reviewDetailSchema, 'output'),
      GoogleConnection: schemaOf(googleConnectionSchema, 'output'),
    },
  };
}
