import { z } from 'zod';

// Seed §2 "Response envelope (all endpoints)": success → {success:true, data}; failure →
// {success:false, error}. `fields` is our optional addition on 400s: the same message per field
// that the shared schema produces, so a form can put it next to the input. Clients must not
// rely on it (another deployment sends only `error`).

export const errorEnvelopeSchema = z.looseObject({
  success: z.literal(false),
  error: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export function successEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.looseObject({ success: z.literal(true), data });
}

/** Either envelope, discriminated on `success`. */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.discriminatedUnion('success', [successEnvelopeSchema(data), errorEnvelopeSchema]);
}

export type SuccessEnvelope<T> = { success: true; data: T };
export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;

export function ok<T>(data: T): SuccessEnvelope<T> {
  return { success: true, data };
}

export function fail(error: string, fields?: Record<string, string>): ErrorEnvelope {
  return fields && Object.keys(fields).length > 0
    ? { success: false, error, fields }
    : { success: false, error };
}

/**
 * Turns a zod error into the 400 envelope: one sentence naming every offending field, plus the
 * first message per field. Used by the API, the BFF and (for the same words) the forms.
 */
export function validationFailure(error: z.ZodError): ErrorEnvelope {
  // A null prototype: field names come from the caller's body, `__proto__` included.
  const fields: Record<string, string> = Object.create(null);
  const general: string[] = [];
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '';
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) {
        const name = key ? `${key}.${k}` : k;
        fields[name] ??= `Unknown field: ${name}.`;
      }
    } else if (key) {
      fields[key] ??= issue.message;
    } else {
      general.push(issue.message);
    }
  }
  const sentences = [...general, ...Object.values(fields)];
  return fail(sentences.length > 0 ? sentences.join(' ') : 'Invalid request.', fields);
}
