import { AppError } from '@review-desk/server/errors';
import type { LegState } from '@review-desk/shared';
import type { CarrierOutcome, DeliveryProvider, OutgoingMessage } from '../delivery/provider.ts';
import type { NewLeg } from '../delivery/store.ts';
import type { DeliveryTracker } from '../delivery/tracker.ts';

// A request's legs (its SMS and email) from their providers' answers to what the delivery tables
// keep: handing each message over, the states, and the refusals that are about the contact.

/** What handing messages over needs: the providers and the delivery tables. */
export type Carriers = { delivery: DeliveryProvider; tracker: DeliveryTracker };

export type LegOutcome = { message: OutgoingMessage; outcome: CarrierOutcome; messageId?: string };

/** The state a leg is in once its provider answered. */
function legState(outcome: CarrierOutcome): LegState {
  if (outcome.status === 'failed') return 'failed';
  if (outcome.status === 'unknown') return 'unknown';
  return outcome.state ?? 'sent';
}

/** The request's status from its legs' outcomes (links: sent). */
export function requestStatusOf(legs: LegOutcome[]): 'sent' | 'failed' | 'unknown' {
  if (legs.length === 0) return 'sent';
  if (legs.every((l) => l.outcome.status === 'failed')) return 'failed';
  if (legs.some((l) => l.outcome.status === 'accepted')) return 'sent';
  return 'unknown';
}

/** The legs as the delivery tables keep them. */
export function legRecords(ctx: Pick<Carriers, 'delivery'>, legs: LegOutcome[]): NewLeg[] {
  return legs.map(({ message, outcome, messageId }) => ({
    channel: message.channel,
    provider: ctx.delivery.nameFor?.(message.channel) ?? ctx.delivery.name,
    to: message.to,
    sender: message.channel === 'sms' ? (ctx.delivery.sender?.() ?? null) : null,
    providerMessageId:
      outcome.status === 'accepted' ? (outcome.providerMessageId ?? messageId ?? null) : null,
    state: legState(outcome),
    errorCode: outcome.status === 'failed' ? (outcome.errorCode ?? null) : null,
    error: outcome.status === 'accepted' ? null : outcome.error,
    segments: outcome.status === 'accepted' ? (outcome.segments ?? null) : null,
  }));
}

/**
 * Hands each message to its provider. Outcomes known without I/O (the outbox) come at once; a
 * network provider is called with no transaction open. A provider that throws failed the leg.
 */
export async function deliverAll(ctx: Carriers, messages: OutgoingMessage[]) {
  const legs: LegOutcome[] = [];
  for (const message of messages) {
    let outcome: CarrierOutcome;
    try {
      outcome = ctx.delivery.decideNow?.(message) ?? (await ctx.delivery.deliver(message));
    } catch (error) {
      outcome = { status: 'failed', error: error instanceof Error ? error.message : 'Delivery failed.' };
    }
    const leg: LegOutcome = { message, outcome };
    // The outbox names its messages itself, so its made-up receipts can name them too.
    if (outcome.status === 'accepted' && !outcome.providerMessageId)
      leg.messageId = ctx.tracker.outboxMessageId();
    legs.push(leg);
  }
  return legs;
}

/** After the legs are recorded: the outbox's receipts, and the opt-outs the carrier reported. */
export async function afterDelivery(
  ctx: Carriers,
  businessId: number,
  legs: LegOutcome[],
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

/**
 * When every leg failed and the carrier's reason is about the contact, the refusal a send gets:
 * a customer who told the carrier STOP is opted out like any other, a number that cannot take
 * texts is a 400 naming customerPhone.
 */
export function contactRefusal(legs: LegOutcome[]): AppError | null {
  if (legs.length === 0 || legs.some((l) => l.outcome.status !== 'failed')) return null;
  const refusals = legs.map((l) => (l.outcome.status === 'failed' ? l.outcome : null));
  if (refusals.some((r) => r?.refusal === 'opted_out')) return new AppError('opted_out');
  const invalid = refusals.find((r) => r?.refusal === 'invalid_number');
  if (invalid)
    return new AppError('validation_failed', invalid.error, { fields: { customerPhone: invalid.error } });
  return null;
}
