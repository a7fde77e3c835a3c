// Delivery providers: how a review request reaches a customer. The product ships two: `outbox`
// (messages are kept and shown at /dev/outbox; the stand-in for an SMS carrier, which cannot run
// here) and `smtp` (real email through any SMTP server; SMS legs still go to the outbox).

export type OutgoingMessage = {
  channel: 'sms' | 'email';
  to: string;
  subject: string | null;
  body: string;
  reviewLink: string;
};

export type DeliveryOutcome = { status: 'accepted' } | { status: 'failed'; error: string };

export type DeliveryProvider = {
  name: string;
  deliver(message: OutgoingMessage): Promise<DeliveryOutcome>;
  /**
   * The outcome, decided without any I/O, for messages that leave nothing to do but record them
   * (the outbox); null when the message needs `deliver`. Lets a send finish in one transaction.
   */
  decideNow?(message: OutgoingMessage): DeliveryOutcome | null;
  close(): Promise<void>;
};
