import { createHmac } from 'node:crypto';
import { checkPhone } from '@review-desk/shared';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

// Contacts in the journal: only masked forms are stored in clear. To find "a request went to this
// contact N days ago", each normalised contact (phone → E.164, email → lower case) is stored as an
// HMAC under a secret kept in the database, so the table alone does not reveal who was contacted
// and a dictionary of phone numbers cannot be matched against it without the secret.

const BULLETS = '•••';

export function maskPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  const last4 = e164.slice(-4);
  return parsed ? `+${parsed.countryCallingCode} ${BULLETS} ${BULLETS} ${last4}` : `+${BULLETS} ${last4}`;
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
  return {
    phone: (e164: string) => createHmac('sha256', secret).update(`phone:${e164}`).digest('base64url'),
    email: (email: string) => createHmac('sha256', secret).update(`email:${email}`).digest('base64url'),
  };
}
export type ContactHasher = ReturnType<typeof createContactHasher>;

/**
 * The history filter accepts what the send form accepts: an email address, or a phone number in
 * international format (any spacing). Returns the normalised contact or an error message.
 */
export function normaliseContactFilter(
  input: string,
): { kind: 'phone' | 'email'; value: string } | { error: string } {
  const value = input.trim();
  if (value.includes('@')) return { kind: 'email', value: value.toLowerCase() };
  const phone = checkPhone(value);
  if (phone.ok) return { kind: 'phone', value: phone.e164 };
  return {
    error: `contact must be an email address or a phone number in international format: the phone number ${phone.reason}`,
  };
}
