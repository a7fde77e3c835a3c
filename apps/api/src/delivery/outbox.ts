import { OUTBOX_FAULTS } from '@review-desk/shared';
import type { DeliveryOutcome, DeliveryProvider, OutgoingMessage } from './provider.ts';

// Accepts every message (the domain records it in the outbox table). With the dev outbox on
// (DEV_OUTBOX=1, never in production), the documented, deterministic fault hooks let tests and
// demos produce a failed SMS or a bounced email.

export function outboxOutcome(message: OutgoingMessage, faults: boolean): DeliveryOutcome {
  if (!faults) return { status: 'accepted' };
  if (message.channel === 'sms' && message.to.endsWith(OUTBOX_FAULTS.smsFailsWhenPhoneEndsWith)) {
    return { status: 'failed', error: 'The SMS carrier refused the message.' };
  }
  if (
    message.channel === 'email' &&
    message.to.slice(message.to.lastIndexOf('@') + 1).toLowerCase() === OUTBOX_FAULTS.emailBouncesAtDomain
  ) {
    return { status: 'failed', error: 'The email bounced: the recipient’s mail server refused it.' };
  }
  return { status: 'accepted' };
}

export function outboxProvider(options: { faults: boolean }): DeliveryProvider {
  const decide = (message: OutgoingMessage) => outboxOutcome(message, options.faults);
  return {
    name: 'outbox',
    async deliver(message) {
      return decide(message);
    },
    decideNow: decide,
    async close() {},
  };
}
