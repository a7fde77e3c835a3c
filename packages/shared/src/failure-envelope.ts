import { ERROR_CODE_NAMES, ERROR_CODES, type ErrorCode } from './errors.ts';
import { fieldErrors } from './field-errors.ts';
import { z } from './zod.ts';

// Failures as our services write them: the envelope with one of our codes (envelope.ts has its
// shapes, which a reader of answers needs without the error table), and a 400 from a zod error.

/**
 * The failure envelope as the service and the BFF write it: `code` is required and is one of the
 * table's. The system suites parse every answer with it, so a code missing from the table fails.
 */
export const codedErrorEnvelopeSchema = /* @__PURE__ */ z.looseObject({
  success: z.literal(false),
  error: /* @__PURE__ */ z.string().check(z.minLength(1)),
  code: z.enum(ERROR_CODE_NAMES),
  fields: z.optional(z.record(z.string(), z.string())),
});
export type CodedErrorEnvelope = z.infer<typeof codedErrorEnvelopeSchema>;

/** The failure envelope: the code, its message (the table's default unless given), field messages. */
export function fail(code: ErrorCode, error?: string, fields?: Record<string, string>): CodedErrorEnvelope {
  const message = error ?? ERROR_CODES[code].message;
  return fields && Object.keys(fields).length > 0
    ? { success: false, error: message, code, fields }
    : { success: false, error: message, code };
}

/**
 * Turns a zod error into the 400 envelope: one sentence naming every offending field, plus the
 * first message per field. Used by the API, the BFF and (for the same words) the forms.
 */
export function validationFailure(error: z.core.$ZodError): CodedErrorEnvelope {
  const { fields, general } = fieldErrors(error);
  const sentences = [...general, ...Object.values(fields)];
  return fail('validation_failed', sentences.length > 0 ? sentences.join(' ') : undefined, fields);
}
