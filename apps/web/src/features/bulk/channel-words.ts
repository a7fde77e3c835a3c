import type { ListChannel } from '@review-desk/shared/bulk';

/** The list's channels, in the order offered: the one that sends every row it can first. */
export const CHANNEL_WORDS: [ListChannel, string][] = [
  ['sms_or_email', 'Text if there is a phone, else email'],
  ['sms', 'SMS'],
  ['email', 'Email'],
  ['both', 'SMS and email'],
  ['link', 'Link only (nothing is sent to the customer)'],
];
