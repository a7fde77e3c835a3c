import { createHmac, createSecretKey } from 'node:crypto';
import { checkPhoneIn } from '@review-desk/shared';
import { emailContactKey } from '@review-desk/shared/contact';
import metadata from 'libphonenumber-js/max/metadata';

// Contacts in the journal: only masked forms are stored in clear. To find "a request went to this
// contact N days ago", each normalised contact (phone → E.164, email → its contact key: lower case,
// a +tag dropped where the provider ignores it, Gmail's dots) is stored as an HMAC under a secret
// kept in the database, so the table alone does not reveal who was contacted and a dictionary of
// phone numbers cannot be matched against it without the secret. Rows written before the contact
// key hold the HMAC of the lower-cased address; a look-up asks for both (`emailLookups`).

const BULLETS = '•••';

/**
 * Every calling code libphonenumber knows, of countries and of non-geographic services (+800, +882…):
 * 1 to 3 digits, and no code is a prefix of another.
 */
const CALLING_CODES: ReadonlySet<string> = new Set([
  ...Object.keys(metadata.country_calling_codes),
  ...Object.keys((metadata as { nonGeographic?: Record<string, unknown> }).nonGeographic ?? {}),
]);

/**
 * The calling code of a number in E.164 form, found as libphonenumber finds it (the first of its
 * 1-3 leading digits that is a known code) — the number was parsed and validated moments ago, so
 * parsing it again only for this was the send path's second phone parse.
 */
function callingCode(e164: string): string | undefined {
  if (!/^\+\d{2,15}$/.test(e164)) return undefined;
  for (let length = 1; length <= 3; length++) {
    const code = e164.slice(1, 1 + length);
    if (CALLING_CODES.has(code)) return code;
  }
  return undefined;
}

export function maskPhone(e164: string): string {
  const code = callingCode(e164);
  const last4 = e164.slice(-4);
  return code ? `+${code} ${BULLETS} ${BULLETS} ${last4}` : `+${BULLETS} ${last4}`;
}

export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return BULLETS;
  return `${email.slice(0, 1)}${BULLETS}${email.slice(at)}`;
}

export function maskContact(contact: { phone?: string | undefined; email?: string | undefined }): string {
  return [contact.phone && maskPhone(contact.phone), contact.email && maskEmail(contact.email)]
    .filter(Boolean)
    .join(', ');
}

export function createContactHasher(secret: string) {
  // Prepared once: the same key as the secret's UTF-8 bytes, without converting it on every call.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const email = (value: string) => createHmac('sha256', key).update(`email:${value}`).digest('base64url');
  return {
    phone: (e164: string) => createHmac('sha256', key).update(`phone:${e164}`).digest('base64url'),
    /** What a send to this address is journaled under: the HMAC of its contact key. */
    email: (address: string) => email(emailContactKey(address)),
    /**
     * The hashes a look-up for this address matches: its contact key's, and the lower-cased
     * address's, which rows journaled before the contact key hold (the same value for most).
     */
    emailLookups: (address: string) => [
      ...new Set([email(emailContactKey(address)), email(address.toLowerCase())]),
    ],
  };
}
export type ContactHasher = ReturnType<typeof createContactHasher>;

/**
 * The history filter accepts what the send form accepts: an email address, or a phone number in
 * international format (any spacing). Returns the normalised contact or an error message.
 */
export function normaliseContactFilter(
  input: string,
  country?: string,
): { kind: 'phone' | 'email'; value: string } | { error: string } {
  const value = input.trim();
  if (value.includes('@')) return { kind: 'email', value: value.toLowerCase() };
  const phone = checkPhoneIn(value, country);
  if (phone.ok) return { kind: 'phone', value: phone.e164 };
  return {
    error: `Contact must be an email address or a phone number: the phone number ${phone.reason}`,
  };
}
