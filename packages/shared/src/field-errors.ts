import { API_KEY_PREFIX } from './scopes.ts';
import type { z } from './zod.ts';

// What a zod error says per field, for a 400's `fields` and for a form's messages: the same words
// on both sides (envelope.ts re-exports it).

const KEY_LIKE = new RegExp(API_KEY_PREFIX, 'i');
/** A field name from the caller, unless it holds something like an API key: never echoed. */
const safeName = (name: string) => (KEY_LIKE.test(name) ? '[redacted]' : name);

/**
 * The first message per field of a zod error (`a.b` for nested paths; unknown keys get "Unknown
 * field"), and the messages that name no field. The one mapping from zod issues to field
 * errors: the 400 envelope (failure-envelope.ts) and the dashboard's forms both use it.
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
