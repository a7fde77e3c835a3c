import type { SendHistoryEntry } from '@review-desk/shared/bff';
import { formErrors } from '@review-desk/shared/envelope';
import { sendMayHaveGoneOut } from '@review-desk/shared/errors';
import { countsTowardCap } from '@review-desk/shared/frequency-cap';
import {
  CHANNEL_REQUIRES,
  type Channel,
  DEFAULT_CHANNEL,
  type SendRequest,
  type SendRequestInput,
  sendRequestSchema,
} from '@review-desk/shared/send';
import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import { ApiError, NetworkError } from '../../lib/api-error.ts';
import { COUNTRY_STORAGE_KEY, guessedCountry } from './country-guess.ts';

// The send form's rules, kept out of the components so they can be tested alone. Validation is
// the shared schema itself: the form shows the server's own messages before sending.

export type SendFormValues = {
  channel: Channel;
  customerName: string;
  phoneCountry: CountryCode;
  /** What the user typed: national ("415 555 2671") or international ("+1 415…"). */
  phoneNumber: string;
  customerEmail: string;
};

/** The form's fields, in the order they are shown (the first with an error gets the focus). */
export const SEND_FIELDS = ['customerName', 'customerPhone', 'customerEmail', 'channel'] as const;
export type SendField = (typeof SEND_FIELDS)[number];
export type SendFieldErrors = Partial<Record<SendField, string>>;

export function initialSendValues(country: CountryCode): SendFormValues {
  return {
    channel: DEFAULT_CHANNEL,
    customerName: '',
    phoneCountry: country,
    phoneNumber: '',
    customerEmail: '',
  };
}

/**
 * The phone number in international form, from the country choice and what was typed. A number
 * typed with a leading + (or an international prefix) keeps its own country code. What cannot
 * be parsed is passed on as +<calling code><digits>, so the shared schema gives its message.
 */
export function composePhone(country: CountryCode, input: string): string {
  const typed = input.trim();
  if (typed === '') return '';
  if (typed.startsWith('+')) return typed;
  const parsed = parsePhoneNumberFromString(typed, country);
  if (parsed) return parsed.number;
  const digits = typed.replace(/\D/g, '');
  return digits ? `+${getCountryCallingCode(country)}${digits}` : typed;
}

/** A readable form of a valid number, for the "will be sent to" hint; null while invalid. */
export function phonePreview(
  country: CountryCode,
  input: string,
): { international: string; country?: string } | null {
  const parsed = parsePhoneNumberFromString(composePhone(country, input));
  if (!parsed?.isValid()) return null;
  return { international: parsed.formatInternational(), country: parsed.country };
}

/** Only the fields the channel needs (docs/api.md, "Sending"); the name always goes when given. */
export function buildSendBody(values: SendFormValues): SendRequestInput {
  const needs = CHANNEL_REQUIRES[values.channel];
  const body: SendRequestInput = { channel: values.channel };
  if (values.customerName.trim() !== '') body.customerName = values.customerName;
  if (needs.phone) body.customerPhone = composePhone(values.phoneCountry, values.phoneNumber);
  if (needs.email) body.customerEmail = values.customerEmail;
  return body;
}

export function validateSend(
  values: SendFormValues,
): { ok: true; body: SendRequest } | { ok: false; errors: SendFieldErrors } {
  const parsed = sendRequestSchema.safeParse(buildSendBody(values));
  if (parsed.success) return { ok: true, body: parsed.data };
  return { ok: false, errors: formErrors(parsed.error, SEND_FIELDS) };
}

/** Same body, same intent: the Idempotency-Key is reused only while the intent is unchanged. */
export { sendIntent as fingerprint } from '@review-desk/shared/send';

/** The contacts the frequency-cap check looks up (E.164 phone, lower-case email). */
export function contactsOf(body: SendRequest): string[] {
  return [body.customerPhone, body.customerEmail].filter(
    (c): c is string => typeof c === 'string' && c !== '',
  );
}

/** Earlier sends to the same contact that count toward the frequency cap (shared countsTowardCap). */
export function recentSends(
  entries: readonly SendHistoryEntry[],
  capDays: number,
  now = Date.now(),
): SendHistoryEntry[] {
  const seen = new Set<string>();
  return entries
    .filter((entry) =>
      countsTowardCap({ status: entry.outcome, createdAt: Date.parse(entry.createdAt) }, { now, capDays }),
    )
    .filter((entry) => {
      if (seen.has(entry.id)) return false;
      seen.add(entry.id);
      return true;
    })
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

/**
 * What a failed send means for the customer, decided on the answer's code (its status when it
 * has none of ours). "unknown": a request may have gone out (the connection broke, the BFF timed
 * out or answered outcome_unknown, or a 2xx came back unreadable) — never shown as success or as
 * a plain failure. "refused": nothing was sent (a refusal, or every delivery failed): fix, retry.
 */
export type SendFailureKind = 'unknown' | 'refused';

export function classifySendFailure(error: unknown): SendFailureKind {
  if (error instanceof NetworkError) return 'unknown';
  if (!(error instanceof ApiError)) return 'unknown';
  if (error.status < 400) return 'unknown';
  return sendMayHaveGoneOut(error) ? 'unknown' : 'refused';
}

/** Countries for the phone field, by name in the user's language, with their calling codes. */
export function countryOptions(locale?: string): { value: CountryCode; label: string }[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'region' });
  } catch {
    names = null;
  }
  return getCountries()
    .map((code) => ({ code, name: names?.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ code, name }) => ({ value: code, label: `${name} (+${getCountryCallingCode(code)})` }));
}

/** Last country used, else the region of the browser's language, else the US. */
export function defaultCountry(): CountryCode {
  const guessed = guessedCountry();
  return guessed && new Set<string>(getCountries()).has(guessed) ? (guessed as CountryCode) : 'US';
}

export function rememberCountry(country: CountryCode): void {
  try {
    localStorage.setItem(COUNTRY_STORAGE_KEY, country);
  } catch {
    // not essential
  }
}
