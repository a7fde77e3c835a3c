import { smtpTransport } from '@review-desk/server/smtp';
import { outboxOutcome } from './outbox.ts';
import type { DeliveryProvider } from './provider.ts';

// Email through a real SMTP server (nodemailer). There is no SMS carrier integration, so SMS legs
// behave as with the outbox provider (kept in the outbox, same fault hooks).

export function smtpProvider(options: { url: string; from: string }): DeliveryProvider {
  const transport = smtpTransport(options.url);
  return {
    name: 'smtp',
    async deliver(message) {
      if (message.channel === 'sms') return outboxOutcome(message, false);
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject ?? '',
          text: message.body,
        });
        return { status: 'accepted' };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return { status: 'failed', error: `The mail server refused the email: ${reason}` };
      }
    },
    decideNow(message) {
      return message.channel === 'sms' ? outboxOutcome(message, false) : null;
    },
    async close() {
      transport.close();
    },
  };
}
