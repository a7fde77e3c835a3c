import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
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
      reason: `must start with + and the country code, e.g. ${PHONE_EXAMPLE}`,
    };
  }
  if (!/^\+[0-9 ().-]+$/.test(value)) {
    return { ok: false, reason: 'may hold only digits, spaces, dashes, dots and parentheses after the +' };
  }
  const parsed = parsePhoneNumberFromString(value);
  if (!parsed?.isValid()) {
    return {
      ok: false,
      reason: `is not valid: check the number and its country code, e.g. ${PHONE_EXAMPLE}`,
    };
  }
  return { ok: true, e164: parsed.number, country: parsed.country };
}

/** E.164 form of a valid international number, or null. */
export function toE164(input: string): string | null {
  const result = checkPhone(input);
  return result.ok ? result.e164 : null;
}

/**
 * A phone as a person writes it where the country is known: international with +, or national
 * (`415 555 2671`) in `country` (ISO 3166, e.g. US). For look-ups (the send history's search), not
 * for sends: the API takes international numbers only.
 */
export function checkPhoneIn(input: string, country: string | undefined): PhoneCheck {
  const value = input.trim();
  if (value.startsWith('+') || country === undefined) return checkPhone(value);
  if (value.length > CUSTOMER_PHONE_INPUT_MAX || !/^[0-9 ().-]+$/.test(value))
    return { ok: false, reason: 'may hold only digits, spaces, dashes, dots and parentheses' };
  try {
    const parsed = parsePhoneNumberFromString(value, country.toUpperCase() as CountryCode);
    if (parsed?.isValid()) return { ok: true, e164: parsed.number, country: parsed.country };
  } catch {
    // an unknown country: as if none were given
  }
  return { ok: false, reason: `is not valid: check the number, or write it with + and its country code` };
}
