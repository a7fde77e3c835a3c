import { randomUUID } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562): the millisecond clock in its first 48 bits, then random bits. Entry
 * ids in creation order put each new one at the end of the id index, on the page the previous
 * send already touched, rather than on a random page of it.
 */
export function timeOrderedId(): string {
  const random = randomUUID();
  const clock = Date.now().toString(16).padStart(12, '0');
  return `${clock.slice(0, 8)}-${clock.slice(8, 12)}-7${random.slice(15)}`;
}
