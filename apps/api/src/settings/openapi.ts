import {
  REMINDER_AFTER_DAYS_MAX,
  SAMPLE_CUSTOMER_NAME,
  SETTINGS_ENDPOINTS,
  SETTINGS_TEST_ENDPOINT,
  SMS_SEGMENTS_MAX,
  settingsResponseSchema,
  settingsTestBodySchema,
  settingsTestResultSchema,
  settingsUpdateSchema,
  TEST_SENDS_PER_HOUR,
} from '@review-desk/shared';
import { failure, schemaOf } from '../openapi/schema.ts';

// The settings calls in the OpenAPI document, from the shared schemas: an extension of the API,
// marked as such (`x-extension`), which clients must not require.

const answer = {
  description:
    'The business’s settings, and its name and an example link of real length (what the SMS limit is counted with).',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['success', 'data'],
        properties: { success: { const: true }, data: { $ref: '#/components/schemas/Settings' } },
      },
    },
  },
};

const RULES =
  `Templates use {customer_name} (a missing name reads "there", or the fallback written as {customer_name|friend}), {business_name} and {review_link}. ` +
  `The SMS and email bodies must contain {review_link}; the subject must not; an unknown placeholder is refused; ` +
  `an SMS longer than ${SMS_SEGMENTS_MAX} segments (counted with a 19-character name, the business’s name, a real-length link and the opt-out words) is refused. ` +
  `Every message ends with opt-out words no template removes. reminderAfterDays: 0 (no reminder) or 1–${REMINDER_AFTER_DAYS_MAX}. ` +
  'quietHours: the sending window {start, end} as HH:MM on the business’s wall clock (timeZone, IANA), or null for any hour. ' +
  'A refusal names each field in `fields`.';

export function settingsOpenApi() {
  const { read, write } = SETTINGS_ENDPOINTS;
  return {
    paths: {
      [read.path]: {
        get: {
          operationId: 'getSettings',
          summary: 'The business’s message templates, reminder, sending window and review site (extension)',
          description: `Extension: clients must not require it (another deployment answers 404). Scope: \`${read.scope}\`.`,
          'x-extension': true,
          responses: { '200': answer, '401': failure(401), '403': failure(403), '429': failure(429) },
        },
        put: {
          operationId: 'updateSettings',
          summary: 'Change any of the settings; the fields left out keep their values (extension)',
          description: `Extension. Scope: \`${write.scope}\`. Needs the Origin rule like a POST. ${RULES}`,
          'x-extension': true,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(settingsUpdateSchema, 'input') } },
          },
          responses: {
            '200': answer,
            '400': failure(400),
            '401': failure(401),
            '403': failure(403),
            '429': failure(429),
          },
        },
      },
      [SETTINGS_TEST_ENDPOINT.path]: {
        post: {
          operationId: 'sendSettingsTest',
          summary: 'Send the business’s words once to the owner’s own phone or email (extension)',
          description:
            `Extension. Scope: \`${SETTINGS_TEST_ENDPOINT.scope}\`. Needs the Origin rule. ` +
            'The templates in the body (each left out: the saved one, checked like a PUT) are written with the sample name ' +
            `"${SAMPLE_CUSTOMER_NAME}" and a sample link, and handed once to the delivery provider. ` +
            'Not a review request: no request is made, nothing counts against the monthly allowance or the frequency cap, no reminder follows. ' +
            `At most ${TEST_SENDS_PER_HOUR} per business in any hour (every test counts, refused ones too): then 429 \`test_send_limited\` with Retry-After. ` +
            'A refusal by the carrier is 502 `delivery_failed`. `sent` is not a delivery receipt.',
          'x-extension': true,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(settingsTestBodySchema, 'input') } },
          },
          responses: {
            '200': {
              description:
                'Handed to the carrier (`sent`), or no answer in time (`unknown`: it may have gone out).',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['success', 'data'],
                    properties: {
                      success: { const: true },
                      data: { $ref: '#/components/schemas/SettingsTestResult' },
                    },
                  },
                },
              },
            },
            '400': failure(400),
            '401': failure(401),
            '403': failure(403),
            '429': failure(429),
            '502': failure(502),
          },
        },
      },
    },
    schemas: {
      Settings: schemaOf(settingsResponseSchema, 'output'),
      SettingsTestResult: schemaOf(settingsTestResultSchema, 'output'),
    },
  };
}
