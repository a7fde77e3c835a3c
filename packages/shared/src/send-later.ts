import { DAY_MS } from './time.ts';
import { z } from './zod.ts';

// Requests that send themselves later (docs/api.md, "Sending later"): a send may name its time
// (`sendAt`) or a delay (`delayMinutes`), and the sale, visit or invoice it follows
// (`externalId`). Held like a send outside the sending hours, it goes once at its time, inside
// the business's sending hours; the same externalId for a business is the same request.

/** The furthest ahead a send may be asked for. */
export const SEND_AHEAD_MAX_DAYS = 30;
export const SEND_AHEAD_MAX_MS = SEND_AHEAD_MAX_DAYS * DAY_MS;
/** `delayMinutes`: a whole number of minutes, at most 30 days. */
export const DELAY_MINUTES_MAX = SEND_AHEAD_MAX_DAYS * 24 * 60;
/** `externalId`: the caller's own id of the sale, visit or invoice. */
export const EXTERNAL_ID_MAX = 200;

export const SEND_LATER_MESSAGES = {
  sendAt: 'sendAt must be an ISO 8601 time with its offset, e.g. 2030-01-15T17:00:00Z',
  both: 'Give sendAt or delayMinutes, not both',
  tooFar: `sendAt must be at most ${SEND_AHEAD_MAX_DAYS} days ahead`,
  link: 'A link sends no message: sendAt and delayMinutes need channel sms, email or both',
  delay: `delayMinutes must be a whole number from 1 to ${DELAY_MINUTES_MAX}`,
  externalId: `externalId must be 1 to ${EXTERNAL_ID_MAX} visible characters`,
} as const;

export const sendAtSchema = /* @__PURE__ */ z.pipe(
  z.pipe(
    z.string({ error: SEND_LATER_MESSAGES.sendAt }),
    z.iso.datetime({ offset: true, error: SEND_LATER_MESSAGES.sendAt }),
  ),
  // One spelling of one instant (UTC), still text: a client that re-serialises the parsed body
  // sends what the API reads.
  z.transform((value: string) => new Date(Date.parse(value)).toISOString()),
);

export const delayMinutesSchema = /* @__PURE__ */ z
  .number({ error: SEND_LATER_MESSAGES.delay })
  .check(
    z.int({ error: SEND_LATER_MESSAGES.delay }),
    z.gte(1, { error: SEND_LATER_MESSAGES.delay }),
    z.lte(DELAY_MINUTES_MAX, { error: SEND_LATER_MESSAGES.delay }),
  );

/** Printable text without control characters: it is echoed in logs, events and the dashboard. */
export const externalIdSchema = /* @__PURE__ */ z.string({ error: SEND_LATER_MESSAGES.externalId }).check(
  z.minLength(1, { error: SEND_LATER_MESSAGES.externalId }),
  z.maxLength(EXTERNAL_ID_MAX, { error: SEND_LATER_MESSAGES.externalId }),
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  z.refine((value) => !/[\u0000-\u001f\u007f]/.test(value) && value.trim() === value, {
    error: SEND_LATER_MESSAGES.externalId,
  }),
);

/**
 * When a send asked for later goes, before the sending hours are applied: `sendAt`, or `now`
 * plus the delay; `now` when it asked for neither; or why it cannot be asked for.
 */
export function requestedSendTime(
  send: { sendAt?: string | undefined; delayMinutes?: number | undefined },
  now: number,
): { at: number } | { refused: string } {
  if (send.delayMinutes !== undefined) return { at: now + send.delayMinutes * 60_000 };
  if (send.sendAt === undefined) return { at: now };
  const at = Date.parse(send.sendAt);
  if (at > now + SEND_AHEAD_MAX_MS) return { refused: SEND_LATER_MESSAGES.tooFar };
  // A time already past goes now (a point of sale's clock may run a little behind).
  return { at: Math.max(now, at) };
}
