import type { Carriers, LegOutcome } from './deliver.ts';

// What a message's answer leaves to do once its leg is recorded, for a send, a held send and a
// reminder alike: the outbox's made-up receipt, and the opt-out a carrier reported.

/** After the legs are recorded: the outbox's receipts, and the opt-outs the carrier reported. */
export async function afterDelivery(
  ctx: Carriers,
  businessId: number,
  legs: readonly LegOutcome[],
  at: number,
): Promise<void> {
  const delivery = await ctx.tracker.store();
  for (const { message, outcome, messageId } of legs) {
    if (outcome.status === 'accepted' && messageId && ctx.delivery.nameFor?.(message.channel) !== 'smtp')
      ctx.tracker.outboxReceipt(messageId, message.channel, message.to);
    if (outcome.status === 'failed' && outcome.refusal === 'opted_out' && message.channel === 'sms')
      await delivery.setOptOut(businessId, message.to, true, at);
  }
}
