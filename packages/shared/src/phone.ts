import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { CUSTOMER_PHONE_INPUT_MAX } from './limits.ts';

// The API's phone: international, with a leading + and the country code (docs/api.md, "Sending").
// Validated against libphonenumber's full metadata (number plans, not just lengths) and
// normalised to E.164, so "+1 (415) 555-2671" and "+14155552671" are the same contact.

export const PHONE_EXAMPLE = '+14155552671';

export type PhoneCheck =
  | { ok: true; e164: string; country: string | undefined }
  | { ok: false; reason: string };

export function checkPhone(input: string): PhoneCheck {
  const value = input.trim();
  if (value.length > CUSTOMER_PHONE_INPUT_MAX) {
    return { ok: false, reason: `is too long (at most ${CUSTOMER_PHONE_INPUT_MAX} characters)` };
  }
  if (!value.startsWith('+')) {
    return {
      ok: false,
      reason: `must be in international format with a leading + and country code, e.g. ${PHONE_EXAMPLE}`,
    };
  }
  if (!/^\+[0-9 ().-]+$/.test(value)) {
    return { ok: false, reason: 'may contain only digits, spaces, dashes, dots and parentheses after the +' };
  }
  const parsed = parsePhoneNumberFromString(value);
  if (!parsed?.isValid()) {
    return { ok: false, reason: `is not a valid phone number for its country code, e.g. ${PHONE_EXAMPLE}` };
  }
  return { ok: true, e164: parsed.number, country: parsed.country };
}

/** E.164 form of a valid international number, or null. */
export function toE164(input: string): string | null {
  const result = checkPhone(input);
  return result.ok ? result.e164 : null;
}
