import { createHmac, timingSafeEqual } from 'node:crypto';

// Square's notification signature (docs/settings.md, "Square"): the x-square-hmacsha256-signature
// header is the base64 HMAC-SHA256, keyed with the subscription's signature key, of the
// notification URL as registered with Square followed by the raw body, byte for byte.

export function squareSignature(signatureKey: string, notificationUrl: string, body: Buffer): string {
  return createHmac('sha256', signatureKey).update(notificationUrl).update(body).digest('base64');
}

/** Whether the header carries that signature (compared in constant time). */
export function squareSigned(
  signatureKey: string,
  notificationUrl: string,
  body: Buffer,
  header: string | undefined,
): boolean {
  if (!header) return false;
  const expected = Buffer.from(squareSignature(signatureKey, notificationUrl, body));
  const given = Buffer.from(header.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
