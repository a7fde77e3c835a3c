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

export const channelSchema = /* @__PURE__ */ z.enum(CHANNELS, {
  error: `channel must be one of ${CHANNELS.join(', ')}`,
});
