import { z } from './zod.ts';

// The channels of POST /api/v1/requests/send and what each needs (docs/api.md, "Sending"). Apart
// from send.ts, so a module that only names channels (analytics) does not load the phone-number
// metadata.

export const CHANNELS = ['sms', 'email', 'both', 'link'] as const;
export type Channel = (typeof CHANNELS)[number];
/** One of sms (the default), email, both, link. */
export const DEFAULT_CHANNEL: Channel = 'sms';

/** Which contact fields each channel needs (docs/api.md, "Sending"). */
export const CHANNEL_REQUIRES = {
  sms: { phone: true, email: false },
  email: { phone: false, email: true },
  both: { phone: true, email: true },
  link: { phone: false, email: false },
} as const satisfies Record<Channel, { phone: boolean; email: boolean }>;

/** Whether a channel sends a message (rule 4: link creates a shareable request and sends none). */
export function channelSendsMessage(channel: Channel): boolean {
  return channel !== 'link';
}

/** How sentences name each channel's way of sending ("required to send by …"). */
export const CHANNEL_SENDS_BY: Record<Channel, string> = {
  sms: 'SMS',
  email: 'email',
  both: 'SMS and email',
  link: 'link',
};

/**
 * The contacts a channel messages, of those given: sms the phone, email the address, both each,
 * link neither. A send's opt-out and frequency-cap checks, its messages and its reminder look at
 * these contacts only.
 */
export function messagedContacts(
  channel: Channel,
  contacts: { phone?: string | null | undefined; email?: string | null | undefined },
): { phone: string | null; email: string | null } {
  const needs = CHANNEL_REQUIRES[channel];
  return {
    phone: needs.phone ? (contacts.phone ?? null) : null,
    email: needs.email ? (contacts.email ?? null) : null,
  };
}

export const channelSchema = /* @__PURE__ */ z.enum(CHANNELS, {
  error: `Channel must be one of ${CHANNELS.join(', ')}`,
});
