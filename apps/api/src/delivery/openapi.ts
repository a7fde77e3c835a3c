import {
  LEG_STATE_WORDS,
  LEG_STATES,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  PAGE_MIN,
  READ_REQUESTS_SCOPE,
  REQUEST_ENDPOINTS,
  REQUEST_STATUSES,
  requestListSchema,
  requestRecordSchema,
} from '@review-desk/shared';
import { CHANNELS } from '@review-desk/shared/channels';
import { failure, type JsonSchema, schemaOf } from '../openapi/schema.ts';
import { TWILIO_WEBHOOKS } from './twilio-routes.ts';

// Reading requests back and Twilio's webhooks in the OpenAPI document, from the shared schemas:
// extensions of the API (`x-extension`), which clients must not require.

const envelope = (name: string, description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['success', 'data'],
        properties: { success: { const: true }, data: { $ref: `#/components/schemas/${name}` } },
      },
    },
  },
});

const query = (name: string, description: string, schema: JsonSchema) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

const STATES = LEG_STATES.map(
  (s) => `\`${s}\` (${LEG_STATE_WORDS[s].label}): ${LEG_STATE_WORDS[s].meaning}`,
).join(' ');

const WEBHOOK =
  'Called by Twilio, not by clients: a form-encoded POST signed with X-Twilio-Signature (the account’s Auth Token over PUBLIC_ORIGIN + this path and the parameters). Unsigned or forged calls are refused with 403 `webhook_signature_invalid`. Served with SMS_PROVIDER=twilio only.';

export function deliveryOpenApi() {
  const { list, one } = REQUEST_ENDPOINTS;
  const scope = `Scope: \`${READ_REQUESTS_SCOPE}\` (a key with \`review_requests:write\` may read too).`;
  const auth = { '401': failure(401), '403': failure(403), '429': failure(429) };
  return {
    paths: {
      [list.path]: {
        get: {
          operationId: 'listRequests',
          summary: 'Review requests sent, newest first, with what happened to each message (extension)',
          description: `Extension: clients must not require it (another deployment answers 404). ${scope} Each request's \`legs\` are its SMS and email as the carriers report them: ${STATES}`,
          'x-extension': true,
          parameters: [
            query('page', 'Page number, from 1.', { type: 'integer', minimum: PAGE_MIN, default: PAGE_MIN }),
            query('limit', 'Page size.', {
              type: 'integer',
              minimum: LIMIT_MIN,
              maximum: LIMIT_MAX,
              default: LIMIT_DEFAULT,
            }),
            query('status', 'Only requests with this status.', {
              type: 'string',
              enum: [...REQUEST_STATUSES],
            }),
            query('channel', 'Only requests sent on this channel.', { type: 'string', enum: [...CHANNELS] }),
          ],
          responses: {
            '200': envelope('RequestList', 'One page of requests.'),
            '400': failure(400),
            ...auth,
          },
        },
      },
      [one.path.replace(':id', '{id}')]: {
        get: {
          operationId: 'getRequest',
          summary: 'One review request and its messages (extension)',
          description: `Extension. ${scope} \`id\` is the send's \`requestId\`; another business's request answers 404.`,
          'x-extension': true,
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              description: 'The send’s requestId.',
              schema: { type: 'string' },
            },
          ],
          responses: { '200': envelope('RequestRecord', 'The request.'), ...auth, '404': failure(404) },
        },
      },
      [TWILIO_WEBHOOKS.status]: {
        post: {
          operationId: 'twilioStatusCallback',
          summary: 'Twilio’s delivery receipts (webhook)',
          description: `${WEBHOOK} MessageSid and MessageStatus (queued, sent, delivered, undelivered, failed, with ErrorCode) move the message's leg forward only: a late or replayed receipt changes nothing; a receipt for a message this service did not send is acknowledged.`,
          'x-extension': true,
          security: [],
          requestBody: {
            required: true,
            content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
          },
          responses: { '204': { description: 'Recorded (or nothing to record).' }, '403': failure(403) },
        },
      },
      [TWILIO_WEBHOOKS.inbound]: {
        post: {
          operationId: 'twilioInbound',
          summary: 'Texts customers send to the service’s number (webhook)',
          description: `${WEBHOOK} STOP, STOPALL, UNSUBSCRIBE, CANCEL, END or QUIT (any case) opts the phone out for the business that last texted it from that number; START or UNSTOP opts it back in. Answers empty TwiML.`,
          'x-extension': true,
          security: [],
          requestBody: {
            required: true,
            content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
          },
          responses: {
            '200': { description: 'Empty TwiML.', content: { 'text/xml': { schema: { type: 'string' } } } },
            '403': failure(403),
          },
        },
      },
    },
    schemas: { RequestList: schemaOf(requestListSchema), RequestRecord: schemaOf(requestRecordSchema) },
  };
}
