import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DAY_MS } from '@review-desk/shared/time';

// Device cookies (OWASP, "Slow brute force using device cookies"; decision 0027): a browser that
// signed in to an account receives a cookie naming a random nonce, bound to the account's email by
// an HMAC under a secret of this database. Its sign-ins to that account are counted on the nonce
// alone, so guesses made elsewhere — by anyone who knows the email — never lock it out; its own
// wrong passwords lock only it, after which it counts as an unknown browser again.

/** How long a browser keeps the cookie after its last sign-in. */
export const DEVICE_COOKIE_MAX_AGE_MS = 180 * DAY_MS;

export type DeviceCookies = {
  /** A new cookie value for a browser that just signed in as `email`. */
  issue(email: string): string;
  /** The nonce of a cookie issued for `email`; null for none, another account's, or a forged one. */
  verify(value: string | null, email: string): string | null;
};

export function deviceCookies(secret: string): DeviceCookies {
  // Its own key, derived from the database's secret under a label of its own.
  const key = createHmac('sha256', secret).update('review-desk device cookie').digest();
  const mac = (email: string, nonce: string) =>
    createHmac('sha256', key).update(`${email}\u0000${nonce}`).digest('base64url');
  return {
    issue(email) {
      const nonce = randomBytes(16).toString('base64url');
      return `${nonce}.${mac(email, nonce)}`;
    },
    verify(value, email) {
      const match = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
      if (!match) return null;
      const [, nonce, given] = match as unknown as [string, string, string];
      const expected = Buffer.from(mac(email, nonce));
      return timingSafeEqual(expected, Buffer.from(given)) ? nonce : null;
    },
  };
}
