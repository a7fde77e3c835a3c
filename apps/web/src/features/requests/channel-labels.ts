import type { Channel } from '@review-desk/shared/send';

// Type-only import: the send module carries the phone-number metadata, which pages that only
// show channel names must not download.
export const CHANNEL_LABELS: Record<Channel, string> = {
  sms: 'SMS',
  email: 'Email',
  both: 'Both',
  link: 'Link',
};

export function channelLabel(channel: string): string {
  return (CHANNEL_LABELS as Record<string, string>)[channel] ?? channel;
}
