// Delivery providers: how a review request reaches a customer. `outbox` (messages are kept and
// shown at /dev/outbox, with receipts made up on the spot), `smtp` (real email through any SMTP
// server) and `twilio` (real text messages, with the carrier's receipts). Each channel has its
// own provider (SMS_PROVIDER, EMAIL_PROVIDER); index.ts puts them together.

export type OutgoingMessage = {
  channel: 'sms' | 'email';
  to: string;
  subject: string | null;
  body: string;
  reviewLink: string;
};

export type DeliveryOutcome =
  | {
      status: 'accepted';
      /** The carrier's id of the message (Twilio's MessageSid), which its receipts name. */
      providerMessageId?: string;
      /** How far it got, when the carrier says (default: sent). */
      state?: 'queued' | 'sent';
      /** Billed SMS segments, when the carrier says. */
      segments?: number;
    }
  | {
      status: 'failed';
      error: string;
      /**
       * A refusal about the contact rather than the carrier: the number cannot take texts (the
       * send is answered 400), or the customer opted out with the carrier (refused as opted out).
       */
      refusal?: 'invalid_number' | 'opted_out';
      /** The carrier's error code, kept for support. */
      errorCode?: string;
    };

/** The request left and no answer came: it may have been sent. Never retried automatically. */
export type UnknownOutcome = { status: 'unknown'; error: string };

/** What a carrier that can lose an answer (Twilio) reports. */
export type CarrierOutcome = DeliveryOutcome | UnknownOutcome;

export type DeliveryProvider = {
  name: string;
  /** The provider of one channel, when this one hands messages on by channel (index.ts). */
  nameFor?(channel: 'sms' | 'email'): string;
  /** Who texts come from (a Twilio number or Messaging Service), when the carrier has one. */
  sender?(): string | null;
  deliver(message: OutgoingMessage): Promise<CarrierOutcome>;
  /**
   * The outcome, decided without any I/O, for messages that leave nothing to do but record them
   * (the outbox); null when the message needs `deliver`. Lets a send finish in one transaction.
   */
  decideNow?(message: OutgoingMessage): CarrierOutcome | null;
  close(): Promise<void>;
};
