import { OUTBOX_FAULTS } from '@review-desk/shared';
import type { DeliveryOutcome, DeliveryProvider, OutgoingMessage } from './provider.ts';

// Accepts every message (the domain records it in the outbox table) except the documented,
// deterministic fault hooks, so tests and demos can produce a failed SMS or a bounced email.

export function outboxOutcome(message: OutgoingMessage): DeliveryOutcome {
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

export function outboxProvider(): DeliveryProvider {
  return {
    name: 'outbox',
    async deliver(message) {
      return outboxOutcome(message);
    },
    decideNow: outboxOutcome,
    async close() {},
  };
}
