import { randomBytes } from 'node:crypto';
import type { Database } from '@review-desk/server/db/types';
import type { Logger } from '@review-desk/server/log';
import { OUTBOX_FAULTS } from '@review-desk/shared';
import { type DeliveryHooks, type DeliveryStore, deliveryStore } from './store.ts';
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

/** The most receipts one transaction records. */
const RECEIPT_BATCH = 200;

export function openDeliveryTracker(options: {
  db: Database;
  logger: Logger;
  now: () => number;
  /** The events its writes report, in their transactions (server.ts). */
  hooks?: DeliveryHooks;
}): DeliveryTracker {
  const store = deliveryStore(options.db, options.hooks);
  // The outbox's receipts wait here in the order their messages were accepted (each is due
  // OUTBOX_RECEIPT_MS after its send), and those due are recorded together in one transaction:
  // one commit for many receipts, not one each.
  let pending: { messageId: string; channel: 'sms' | 'email'; to: string; due: number }[] = [];
  let timer: NodeJS.Timeout | null = null;
  let flushing = false;
  let closed = false;

  const schedule = () => {
    if (closed || flushing || timer !== null || pending.length === 0) return;
    timer = setTimeout(flush, Math.max(0, pending[0]!.due - Date.now()));
    timer.unref();
  };

  async function flush() {
    timer = null;
    flushing = true;
    const now = Date.now();
    let count = 0;
    while (count < pending.length && count < RECEIPT_BATCH && pending[count]!.due <= now) count++;
    const due = pending.slice(0, count);
    pending = pending.slice(count);
    try {
      // Each receipt is one UPDATE of its own leg: issued together, one round trip on PostgreSQL.
      await options.db.transaction(async () => {
        await Promise.all(
          due.map(({ messageId, channel, to }) => {
            const undelivered = channel === 'sms' && to.endsWith(OUTBOX_FAULTS.smsFailsWhenPhoneEndsWith);
            return store.applyReceipt(
              messageId,
              undelivered ? 'undelivered' : 'delivered',
              undelivered ? '30003' : null,
              undelivered ? receiptError('30003') : null,
              options.now(),
            );
          }),
        );
      });
    } catch (error) {
      if (!closed) options.logger.warn({ err: error }, 'recording the outbox’s receipts failed');
    } finally {
      flushing = false;
      schedule();
    }
  }

  const tracker: DeliveryTracker = {
    store: async () => store,
    db: async () => options.db,
    outboxMessageId: () => `OB${randomBytes(16).toString('hex')}`,
    outboxReceipt(messageId, channel, to) {
      if (closed) return;
      pending.push({ messageId, channel, to, due: Date.now() + OUTBOX_RECEIPT_MS });
      schedule();
    },
    async close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending = [];
    },
  };
  return tracker;
}
