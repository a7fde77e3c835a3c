import { smtpTransport } from '@review-desk/server/smtp';

// Email through the SMTP server in BFF_SMTP_URL (nodemailer). `sent` means the server accepted
// the message for delivery, never that it arrived.

export type OutgoingEmail = { to: string; subject: string; text: string; html: string };

export type Mailer = {
  readonly configured: boolean;
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
