import type { CarrierOutcome, DeliveryProvider, OutgoingMessage } from '../delivery/provider.ts';
import type { DeliveryTracker } from '../delivery/tracker.ts';

// Step 3 of a send (send.ts), and of a held send and a reminder: each message handed to its
// provider, with no transaction open. A provider that throws failed the leg.

/** What handing messages over needs: the providers, and the outbox's ids for its messages. */
export type Carriers = { delivery: DeliveryProvider; tracker: DeliveryTracker };

export type LegOutcome = { message: OutgoingMessage; outcome: CarrierOutcome; messageId?: string };

/** A message with its provider's answer. The outbox names its messages itself, so its made-up receipts can name them too. */
function handedOver(ctx: Carriers, message: OutgoingMessage, outcome: CarrierOutcome): LegOutcome {
  const leg: LegOutcome = { message, outcome };
  if (outcome.status === 'accepted' && !outcome.providerMessageId)
    leg.messageId = ctx.tracker.outboxMessageId();
  return leg;
}

/**
 * Every message's outcome when its provider decides it without I/O (the outbox; a link has no
 * message), so the send can write its request already finished; null when one needs `deliver`.
 */
export function knownOutcomes(ctx: Carriers, messages: readonly OutgoingMessage[]): LegOutcome[] | null {
  const legs: LegOutcome[] = [];
  for (const message of messages) {
    const outcome = ctx.delivery.decideNow?.(message);
    if (!outcome) return null;
    legs.push(handedOver(ctx, message, outcome));
  }
  return legs;
}

/** Hands each message to its provider, one after the other. */
export async function deliverAll(ctx: Carriers, messages: readonly OutgoingMessage[]): Promise<LegOutcome[]> {
  const legs: LegOutcome[] = [];
  for (const message of messages) {
    let outcome: CarrierOutcome;
    try {
      outcome = ctx.delivery.decideNow?.(message) ?? (await ctx.delivery.deliver(message));
    } catch (error) {
      outcome = { status: 'failed', error: error instanceof Error ? error.message : 'Delivery failed.' };
    }
    legs.push(handedOver(ctx, message, outcome));
  }
  return legs;
}

/**
 * The send's step: nothing now for a held send (its job delivers when the sending hours open), the
 * outcomes already known, or each message handed to its carrier.
 */
export async function deliver(
  ctx: Carriers,
  plan: { held: boolean; known: LegOutcome[] | null; messages: readonly OutgoingMessage[] },
): Promise<LegOutcome[]> {
  if (plan.held) return [];
  return plan.known ?? (await deliverAll(ctx, plan.messages));
}
