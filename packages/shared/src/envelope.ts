import { z } from './zod.ts';

// docs/api.md, "Errors": success → {success:true, data}; failure → {success:false,
// error}. Our services add `code` (errors.ts: what the failure is, for programs to decide on) and,
// on 400s, `fields`: the same message per field that the shared schema produces, so a form can
// put it next to the input. Clients must not rely on either: another deployment may send only
// `error`. Failures with our codes (failure-envelope.ts) and the mapping from a zod error to field
// messages (field-errors.ts) are re-exported here.

export * from './failure-envelope.ts';
export * from './field-errors.ts';

export const errorEnvelopeSchema = /* @__PURE__ */ z.looseObject({
  success: z.literal(false),
  error: z.string(),
  /** One of ERROR_CODES from our services; another deployment may send none, or codes we do not know. */
  code: z.optional(z.string()),
  fields: z.optional(z.record(z.string(), z.string())),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

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
