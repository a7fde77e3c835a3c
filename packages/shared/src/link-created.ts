// A review link's state in words, apart from send.ts: a page that shows it (Recent requests) does
// not load the phone-number metadata the send's schema checks with.

/**
 * A review link's state: nothing was sent, so none of the send statuses fits it (the service
 * answers `sent` for a link too).
 */
export const LINK_CREATED = {
  label: 'Link created',
  meaning:
    'A review link for this customer. No message was sent: share the link or show its QR code. It is not a review until the customer leaves one.',
} as const;
