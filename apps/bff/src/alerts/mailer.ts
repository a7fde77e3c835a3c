import { smtpTransport } from '@review-desk/server/smtp';

// Email through the SMTP server in BFF_SMTP_URL (nodemailer). `sent` means the server accepted
// the message for delivery, never that it arrived.

export type OutgoingEmail = { to: string; subject: string; text: string; html: string };

export type Mailer = {
  readonly configured: boolean;
  /** Development only: the emails kept instead of sent (newest first); absent for real mailers. */
  outbox?: () => (OutgoingEmail & { at: string })[];
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
};

export const noMailer: Mailer = {
  configured: false,
  async send() {
    throw new Error('Email is not configured (BFF_SMTP_URL)');
  },
  close() {},
};

export function createMailer(smtp: { url: string; from: string } | null): Mailer {
  if (!smtp) return noMailer;
  const transport = smtpTransport(smtp.url);
  return {
    configured: true,
    async send(email) {
      await transport.sendMail({ from: smtp.from, ...email });
    },
    close: () => transport.close(),
  };
}

/** Emails kept in the development outbox, at most this many (the oldest go first). */
export const DEV_OUTBOX_MAX = 100;

/**
 * With dev hooks on and no SMTP server: emails are kept in this process's memory and listed at
 * /dev/outbox.json instead of being sent, so alerts and digests can be seen without a mail server.
 */
export function createOutboxMailer(now: () => number = Date.now): Mailer {
  const kept: (OutgoingEmail & { at: string })[] = [];
  return {
    configured: true,
    outbox: () => [...kept].reverse(),
    async send(email) {
      kept.push({ ...email, at: new Date(now()).toISOString() });
      if (kept.length > DEV_OUTBOX_MAX) kept.shift();
    },
    close() {},
  };
}
