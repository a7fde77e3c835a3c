import { STATUS_TABLE } from '@review-desk/shared';
import { z } from 'zod';

// What every part of the OpenAPI document (openapi.ts and each extension's) builds with: a shared
// zod schema as JSON Schema, and a failure answer pointing at the one error envelope.

export type JsonSchema = Record<string, unknown>;

/** zod 4's JSON Schema 2020-12, which OpenAPI 3.1 uses as is. */
export function schemaOf(schema: z.core.$ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** A failure of this status: what it means, what to do, and the envelope whose `code` says which. */
export const failure = (status: keyof typeof STATUS_TABLE) => ({
  description: `${STATUS_TABLE[status].meaning} ${STATUS_TABLE[status].action} The envelope's \`code\` says which (see /docs, Errors).`,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
});
