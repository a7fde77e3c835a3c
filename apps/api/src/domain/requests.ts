import { AppError } from '@review-desk/server/errors';
import {
  ERROR_CODES,
  MESSAGES,
  type MessageTemplates,
  SEND_STATUS_SENT,
  type SendRequest,
  type SendResult,
} from '@review-desk/shared';
import { composeMessages } from '../delivery/messages.ts';
import type { DeliveryOutcome, DeliveryProvider, OutgoingMessage } from '../delivery/provider.ts';
import type { Store } from '../store/index.ts';
import type { RequestRow } from '../store/requests.ts';
import { DAY_MS, monthOf } from '../store/time.ts';
import { randomToken, requestPublicId } from './ids.ts';
import type { AuthenticatedKey } from './keys.ts';

// POST /api/v1/requests/send (seed §4). A request is reserved (opt-out, frequency cap and
// allowance checked under the write lock, so two concurrent sends cannot both pass), delivered,
// then finished with the outcome. With a network delivery (SMTP) the reservation is committed
// first, so a slow mail server never holds the database lock.

export type SendContext = {
  store: Store;
  delivery: DeliveryProvider;
  publicOrigin: string;
  frequencyCapDays: number;
  monthlySendAllowance: number;
  now: () => number;
  /** The business's words (its settings); the built-in words when absent. */
  templates?: MessageTemplates;
};

export type SendOutcome = { result: SendResult; request: RequestRow; legs: LegOutcome[] };
type LegOutcome = { message: OutgoingMessage; outcome: DeliveryOutcome };

const LEG_NAMES = { sms: 'SMS', email: 'Email' } as const;

export function reviewLinkFor(publicOrigin: string, token: string): string {
  return `${publicOrigin}/r/${token}`;
}

export async function sendReviewRequest(
  ctx: SendContext,
  key: AuthenticatedKey,
  body: SendRequest,
): Promise<SendOutcome> {
  const { store } = ctx;
  const now = ctx.now();
  const business = key.business;
  const sendsMessage = body.channel !== 'link';
  // Only the contacts the channel messages: a link messages nobody, so no cap or opt-out applies.
  const phone = body.channel === 'sms' || body.channel === 'both' ? (body.customerPhone ?? null) : null;
  const email = body.channel === 'email' || body.channel === 'both' ? (body.customerEmail ?? null) : null;
  const month = monthOf(now);

  const token = randomToken(32);
  const reviewLink = reviewLinkFor(ctx.publicOrigin, token);
  const messages = sendsMessage
    ? composeMessages({
        channel: body.channel as 'sms' | 'email' | 'both',
        businessName: business.name,
        customerName: body.customerName ?? null,
        phone,
        email,
        reviewLink,
        ...(ctx.templates ? { templates: ctx.templates } : {}),
      })
    : [];

  /** Checks opt-out, cap and allowance and records the request as being sent (in a transaction). */
  const reserve = () => {
    for (const contact of [phone, email]) {
      if (contact && store.requests.isOptedOut(business.id, contact)) throw new AppError('opted_out');
    }
    if (ctx.frequencyCapDays > 0 && (phone || email)) {
      const since = now - ctx.frequencyCapDays * DAY_MS;
      const contact = { phone: phone ?? undefined, email: email ?? undefined };
      if (store.requests.contactedSince(business.id, contact, since)) {
        throw new AppError('frequency_capped', MESSAGES.frequencyCap(ctx.frequencyCapDays));
      }
    }
    // Seed §5.6/§7: beyond the sending allowance → 403. Links send nothing and are not counted.
    if (sendsMessage && ctx.monthlySendAllowance > 0) {
      if (store.requests.usage(business.id, month) >= ctx.monthlySendAllowance) {
        throw new AppError('allowance_exceeded', MESSAGES.allowanceExceeded(ctx.monthlySendAllowance));
      }
      store.requests.addUsage(business.id, month, 1);
    }
    return store.requests.insert({
      publicId: requestPublicId(),
      token,
      businessId: business.id,
      apiKeyId: key.id,
      channel: body.channel,
      customerName: body.customerName ?? null,
      customerPhone: body.customerPhone ?? null,
      customerEmail: body.customerEmail ?? null,
      createdAt: now,
    });
  };

  /** Records each leg's outcome and the request's (in a transaction). */
  const complete = (reserved: RequestRow, legs: LegOutcome[]) => {
    const failed = legs.filter((l) => l.outcome.status === 'failed');
    const allFailed = legs.length > 0 && failed.length === legs.length;
    const describe = (l: LegOutcome) =>
      `${LEG_NAMES[l.message.channel]}: ${l.outcome.status === 'failed' ? l.outcome.error : 'accepted'}`;
    // Seed §2: with channel both, one delivery may fail while the other succeeds; the caller must
    // check warning. It names the failed leg so the caller knows which contact to fix.
    const warning =
      !allFailed && failed.length > 0
        ? `${failed.map(describe).join(' ')} The other delivery was accepted.`
        : null;
    const error = allFailed
      ? `${ERROR_CODES.delivery_failed.message} ${failed.map(describe).join(' ')}`
      : null;
    const at = ctx.now();
    for (const { message, outcome } of legs) {
      store.outbox.insert({
        requestId: reserved.id,
        channel: message.channel,
        to: message.to,
        subject: message.subject,
        body: message.body,
        reviewLink: message.reviewLink,
        status: outcome.status,
        error: outcome.status === 'failed' ? outcome.error : null,
        createdAt: at,
      });
    }
    // Nothing reached the customer: give back the allowance; the failed status keeps the attempt
    // out of the frequency cap.
    if (allFailed && sendsMessage && ctx.monthlySendAllowance > 0)
      store.requests.addUsage(business.id, month, -1);
    const failedLeg = !allFailed && failed.length === 1 ? failed[0]!.message.channel : null;
    const row = store.requests.finish(reserved.id, allFailed ? 'failed' : 'sent', {
      failedLeg,
      warning,
      error,
    });
    return { row, warning, error, allFailed };
  };

  // Outcomes known without I/O (the outbox): reserve, record and finish in one transaction.
  const decided = messages.map((message) => ({
    message,
    outcome: ctx.delivery.decideNow?.(message) ?? null,
  }));
  let legs: LegOutcome[];
  let done: ReturnType<typeof complete>;
  if (decided.every((l): l is LegOutcome => l.outcome !== null)) {
    legs = decided;
    done = store.transaction(() => complete(reserve(), decided));
  } else {
    // A network delivery: reserve first, so the database lock is never held across it.
    const reserved = store.transaction(reserve);
    legs = [];
    for (const message of messages) {
      let outcome: DeliveryOutcome;
      try {
        outcome = await ctx.delivery.deliver(message);
      } catch (error) {
        outcome = { status: 'failed', error: error instanceof Error ? error.message : 'Delivery failed.' };
      }
      legs.push({ message, outcome });
    }
    done = store.transaction(() => complete(reserved, legs));
  }
  const { row: finished, warning, error, allFailed } = done;

  if (allFailed) throw new AppError('delivery_failed', error!);
  const result: SendResult = {
    requestId: finished.public_id,
    status: SEND_STATUS_SENT,
    channel: finished.channel,
    reviewLink,
  };
  if (warning) result.warning = warning;
  return { result, request: finished, legs };
}

/** Requests a stopped process left mid-delivery: nobody saw their outcome, so they are failed. */
export function recoverInterruptedSends(store: Store, now: number): number {
  const stale = store.requests.staleSending(now - 60_000);
  for (const row of stale) {
    store.transaction(() => {
      store.requests.finish(row.id, 'failed', { error: 'The service stopped before delivery finished.' });
    });
  }
  return stale.length;
}
