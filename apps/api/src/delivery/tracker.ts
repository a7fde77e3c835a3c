import { randomBytes } from 'node:crypto';
import type { Database } from '@review-desk/server/db/types';
import type { Logger } from '@review-desk/server/log';
import { OUTBOX_FAULTS } from '@review-desk/shared';
import { type DeliveryStore, deliveryStore } from './store.ts';
import { receiptError } from './twilio-errors.ts';

// The delivery tables of a running service, on the service's database (migrated with the others
// when it opens: store/database.ts). Also makes up the outbox's receipts, so the whole flow runs
// on one machine without a carrier.

/** How long the outbox takes to "deliver" a message. */
export const OUTBOX_RECEIPT_MS = 1_000;

export type DeliveryTracker = {
  /** The delivery tables' store. */
  store(): Promise<DeliveryStore>;
  db(): Promise<Database>;
  /** A made-up id for an outbox message, which its made-up receipt names. */
  outboxMessageId(): string;
  /**
   * The outbox's receipt for a message it accepted, after a moment: delivered, or undelivered for
   * a phone ending 0000 (reachable when the fault hooks are off; with them on it is refused).
   */
  outboxReceipt(messageId: string, channel: 'sms' | 'email', to: string): void;
  close(): Promise<void>;
};

export function openDeliveryTracker(options: {
  db: Database;
  logger: Logger;
  now: () => number;
}): DeliveryTracker {
  const store = deliveryStore(options.db);
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  const tracker: DeliveryTracker = {
    store: async () => store,
    db: async () => options.db,
    outboxMessageId: () => `OB${randomBytes(16).toString('hex')}`,
    outboxReceipt(messageId, channel, to) {
      if (closed) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        const undelivered = channel === 'sms' && to.endsWith(OUTBOX_FAULTS.smsFailsWhenPhoneEndsWith);
        void tracker
          .store()
          .then((store) =>
            store.applyReceipt(
              messageId,
              undelivered ? 'undelivered' : 'delivered',
              undelivered ? '30003' : null,
              undelivered ? receiptError('30003') : null,
              options.now(),
            ),
          )
          .catch((error) => {
            if (!closed) options.logger.warn({ err: error }, 'recording an outbox receipt failed');
          });
      }, OUTBOX_RECEIPT_MS);
      timer.unref();
      timers.add(timer);
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
  return tracker;
}
