import { ERROR_CODE_NAMES, ERROR_CODES, type ErrorCode } from './errors.ts';
import { API_KEY_PREFIX } from './scopes.ts';
import { z } from './zod.ts';

// docs/api.md, "Errors": success → {success:true, data}; failure → {success:false,
// error}. Our services add `code` (errors.ts: what the failure is, for programs to decide on) and,
// on 400s, `fields`: the same message per field that the shared schema produces, so a form can
// put it next to the input. Clients must not rely on either: another deployment may send only
// `error`.

export const errorEnvelopeSchema = z.looseObject({
  success: z.literal(false),
  error: z.string(),
  /** One of ERROR_CODES from our services; another deployment may send none, or codes we do not know. */
  code: z.optional(z.string()),
  fields: z.optional(z.record(z.string(), z.string())),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/**
 * The failure envelope as the service and the BFF write it: `code` is required and is one of the
 * table's. The system suites parse every answer with it, so a code missing from the table fails.
 */
export const codedErrorEnvelopeSchema = z.looseObject({
  success: z.literal(false),
  error: z.string().check(z.minLength(1)),
  code: z.enum(ERROR_CODE_NAMES),
  fields: z.optional(z.record(z.string(), z.string())),
});
export type CodedErrorEnvelope = z.infer<typeof codedErrorEnvelopeSchema>;

export function successEnvelopeSchema<T extends z.core.$ZodType>(data: T) {
  return z.looseObject({ success: z.literal(true), data });
}

/** Either envelope, discriminated on `success`. */
export function envelopeSchema<T extends z.core.$ZodType>(data: T) {
  return z.discriminatedUnion('success', [successEnvelopeSchema(data), errorEnvelopeSchema]);
}

export type SuccessEnvelope<T> = { success: true; data: T };
export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;

export function ok<T>(data: T): SuccessEnvelope<T> {
  return { success: true, data };
}

/** The failure envelope: the code, its message (the table's default unless given), field messages. */
export function fail(code: ErrorCode, error?: string, fields?: Record<string, string>): CodedErrorEnvelope {
  const message = error ?? ERROR_CODES[code].message;
  return fields && Object.keys(fields).length > 0
    ? { success: false, error: message, code, fields }
    : { success: false, error: message, code };
}

const KEY_LIKE = new RegExp(API_KEY_PREFIX, 'i');
/** A field name from the caller, unless it holds something like an API key: never echoed. */
const safeName = (name: string) => (KEY_LIKE.test(name) ? '[redacted]' : name);

/**
 * The first message per field of a zod error (`a.b` for nested paths; unknown keys get "Unknown
 * field"), and the messages that name no field. The one mapping from zod issues to field
 * errors: the 400 envelope below and the dashboard's forms both use it.
 */
export function fieldErrors(error: z.core.$ZodError): { fields: Record<string, string>; general: string[] } {
  // A null prototype: field names come from the caller's body, `__proto__` included.
  const fields: Record<string, string> = Object.create(null);
  const general: string[] = [];
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map((part) => safeName(String(part))).join('.') : '';
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys.map(safeName)) {
        const name = key ? `${key}.${k}` : k;
        fields[name] ??= `Unknown field: ${name}.`;
      }
    } else if (key) {
      fields[key] ??= issue.message;
    } else {
      general.push(issue.message);
    }
  }
  return { fields, general };
}

/** The first message of each of a form's fields (the fields it does not have are left out). */
export function formErrors<K extends string>(
  error: z.core.$ZodError,
  keys: readonly K[],
): Partial<Record<K, string>> {
  const { fields } = fieldErrors(error);
  const picked: Partial<Record<K, string>> = {};
  for (const key of keys) if (fields[key] !== undefined) picked[key] = fields[key];
  return picked;
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
