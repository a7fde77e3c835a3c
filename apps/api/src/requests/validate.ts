import { AppError } from '@review-desk/server/errors';
import {
  channelSendsMessage,
  messagedContacts,
  nextAllowedSendTime,
  quietHoursToWindow,
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

// Step 1 of a send (send.ts): the body against the shared schema (400 names every offending
// field), then all that is decided before anything is written — the contacts the channel
// messages, when it goes, the words, and the outcomes a provider knows without I/O.

export type SendPlan = {
  key: AuthenticatedKey;
  send: SendRequest;
  now: number;
  /** The contacts the channel messages: a link messages nobody, so no opt-out or cap applies. */
  phone: string | null;
  email: string | null;
  messages: OutgoingMessage[];
  /** Whether it sends a message (a link does not: no allowance, no sending hours). */
  sendsMessage: boolean;
  /** The calendar month whose allowance it uses ('YYYY-MM'). */
  month: string;
  /** Outside the business's sending hours a message is held until they open; a link never is. */
  held: boolean;
  sendAt: number;
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

export async function validate(ctx: Validating, key: AuthenticatedKey, body: unknown): Promise<SendPlan> {
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
  const sendAt = sendsMessage ? nextAllowedSendTime(now, window, settings.timeZone) : now;
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
    month: monthOf(now),
    held,
    sendAt,
    publicId: requestPublicId(),
    token,
    reviewLink,
    known: held ? null : knownOutcomes(ctx, messages),
    reminderAfterDays: settings.reminderAfterDays,
  };
}
