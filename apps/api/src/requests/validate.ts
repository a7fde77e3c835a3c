import { AppError } from '@review-desk/server/errors';
import {
  channelSendsMessage,
  messagedContacts,
  nextAllowedSendTime,
  quietHoursToWindow,
  requestedSendTime,
  type SendRequest,
  sendRequestSchema,
} from '@review-desk/shared';
import type { AuthenticatedKey } from '../accounts/keys.ts';
import { composeMessages } from '../delivery/messages.ts';
import type { OutgoingMessage } from '../delivery/provider.ts';
import { randomToken, requestPublicId } from '../ids.ts';
import type { SettingsService } from '../settings/index.ts';
import { monthOf } from '../store/time.ts';
import { type Carriers, knownOutcomes, type LegOutcome } from './deliver.ts';
import type { Origin } from './origins.ts';

// Step 1 of a send (send.ts): the body against the shared schema (400 names every offending
// field), then all that is decided before anything is written — the contacts the channel
// messages, when it goes (its own time or delay, then the sending hours), the words, and the
// outcomes a provider knows without I/O.

/** Who sends: a caller's key, or a point of sale's automatic send (no key: `id` null). */
export type Sender = Pick<AuthenticatedKey, 'businessId' | 'business'> & { id: string | null };

export type SendPlan = {
  key: Sender;
  send: SendRequest;
  now: number;
  /** The contacts the channel messages: a link messages nobody, so no opt-out or cap applies. */
  phone: string | null;
  email: string | null;
  messages: OutgoingMessage[];
  /** Whether it sends a message (a link does not: no allowance, no sending hours). */
  sendsMessage: boolean;
  /** The calendar month whose allowance it uses ('YYYY-MM'): a held request's, the month it goes. */
  month: string;
  /**
   * Held until `sendAt`: asked for later (sendAt, delayMinutes), or outside the business's sending
   * hours; a link never is. A held request counts (cap, allowance, analytics) from `sendAt`.
   */
  held: boolean;
  sendAt: number;
  /** The externalId and an automatic send's source; null for a plain send (nothing written). */
  origin: Origin | null;
  publicId: string;
  token: string;
  reviewLink: string;
  /** Every message's outcome, when known without I/O (the outbox; a link has none); else null. */
  known: LegOutcome[] | null;
  /** The business's reminder delay, from the settings read for the words and the hours. */
  reminderAfterDays: number;
};

export type Validating = Carriers & {
  settings: SettingsService;
  publicOrigin: string;
  now: () => number;
};

export function reviewLinkFor(publicOrigin: string, token: string): string {
  return `${publicOrigin}/r/${token}`;
}

export async function validate(
  ctx: Validating,
  key: Sender,
  body: unknown,
  source: Origin['source'] = null,
): Promise<SendPlan> {
  const parsed = sendRequestSchema.safeParse(body);
  if (!parsed.success) throw AppError.validation(parsed.error);
  const send = parsed.data;
  // The words, the sending hours and the reminder: one settings row, read once.
  const settings = await ctx.settings.settingsOf(key.businessId, key.business);
  const now = ctx.now();
  const { phone, email } = messagedContacts(send.channel, {
    phone: send.customerPhone,
    email: send.customerEmail,
  });
  const sendsMessage = channelSendsMessage(send.channel);
  const window = quietHoursToWindow(settings.quietHours);
  const asked = requestedSendTime(send, now);
  if ('refused' in asked)
    throw new AppError('validation_failed', asked.refused, { fields: { sendAt: asked.refused } });
  const sendAt = sendsMessage ? nextAllowedSendTime(asked.at, window, settings.timeZone) : now;
  const token = randomToken(32);
  const reviewLink = reviewLinkFor(ctx.publicOrigin, token);
  const messages = composeMessages({
    businessName: key.business.name,
    customerName: send.customerName ?? null,
    phone,
    email,
    reviewLink,
    templates: settings,
  });
  const held = sendAt > now;
  return {
    key,
    send,
    now,
    phone,
    email,
    messages,
    sendsMessage,
    month: monthOf(held ? sendAt : now),
    held,
    sendAt,
    origin: send.externalId !== undefined || source ? { externalId: send.externalId ?? null, source } : null,
    publicId: requestPublicId(),
    token,
    reviewLink,
    known: held ? null : knownOutcomes(ctx, messages),
    reminderAfterDays: settings.reminderAfterDays,
  };
}
