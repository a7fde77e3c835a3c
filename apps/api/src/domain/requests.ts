import type { Clock } from '@review-desk/server/db/clock';
import { AppError } from '@review-desk/server/errors';
import {
  ERROR_CODES,
  MESSAGES,
  type MessageTemplates,
  nextAllowedSendTime,
  SEND_STATUS_SCHEDULED,
  SEND_STATUS_SENT,
  SEND_STATUS_UNKNOWN,
  type SendRequest,
  type SendResult,
  type SendWindow,
} from '@review-desk/shared';
import { composeMessages } from '../delivery/messages.ts';
import type { DeliveryProvider } from '../delivery/provider.ts';
import { holdRequest } from '../delivery/scheduled.ts';
import type { DeliveryTracker } from '../delivery/tracker.ts';
import type { Store } from '../store/index.ts';
import type { RequestRow } from '../store/requests.ts';
import { DAY_MS, monthOf } from '../store/time.ts';
import { randomToken, requestPublicId } from './ids.ts';
import type { AuthenticatedKey } from './keys.ts';
import {
  afterDelivery,
  contactRefusal,
  deliverAll,
  type LegOutcome,
  legRecords,
  requestStatusOf,
} from './legs.ts';

// POST /api/v1/requests/send (docs/api.md). A request is reserved (opt-out, frequency cap and
// allowance checked under the write lock, so two concurrent sends cannot both pass), delivered,
// then finished with the outcome. With a network delivery (SMTP) the reservation is committed
// first, so a slow mail server never holds the database lock.

export type SendContext = {
  store: Store;
  delivery: DeliveryProvider;
  tracker: DeliveryTracker;
  publicOrigin: string;
  frequencyCapDays: number;
  monthlySendAllowance: number;
  now: () => number;
  /** The business's words (its settings); the built-in words when absent. */
  templates?: MessageTemplates;
  /** The business's sending window and its zone; absent: any hour. */
  quietHoursFor?: (businessId: number) => Promise<{ window: SendWindow | null; timeZone: string }>;
  /** The service's clock for scheduled work (jobs' run times). */
  clock?: Clock;
};

export type SendOutcome = { result: SendResult; request: RequestRow; legs: LegOutcome[] };

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
  const delivery = await ctx.tracker.store();
  // A phone that texted STOP to the business's number.
  if (phone && (await delivery.isOptedOut(business.id, phone))) throw new AppError('opted_out');
  // Outside the business's sending hours a message is held until they open; a link never is.
  const hours = sendsMessage && ctx.quietHoursFor ? await ctx.quietHoursFor(business.id) : null;
  const sendAt = hours ? nextAllowedSendTime(now, hours.window, hours.timeZone) : now;

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
    // docs/api.md: beyond the sending allowance → 403. Links send nothing and are not counted.
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

  if (sendAt > now) {
    const reserved = store.transaction(reserve);
    await holdRequest(
      { tracker: ctx.tracker, delivery: ctx.delivery, clock: ctx.clock ?? { now: ctx.now } },
      reserved,
      messages,
      sendAt,
      now,
    );
    const result: SendResult = {
      requestId: reserved.public_id,
      status: SEND_STATUS_SCHEDULED,
      channel: reserved.channel,
      reviewLink,
      scheduledFor: new Date(sendAt).toISOString(),
    };
    return { result, request: reserved, legs: [] };
  }

  // Outcomes known without I/O (the outbox): reserve, record and finish in one transaction.
  const decided = messages.map((message) => ({
    message,
    outcome: ctx.delivery.decideNow?.(message) ?? null,
  }));
  let legs: LegOutcome[];
  let done: ReturnType<typeof completeSend>;
  if (decided.every((l) => l.outcome !== null)) {
    legs = await deliverAll(ctx, messages);
    done = store.transaction(() => completeSend(ctx, reserve(), legs));
    await delivery.createRequest({
      requestId: done.row.public_id,
      businessId: business.id,
      channel: body.channel,
      status: 'sending',
      scheduledFor: null,
      at: now,
    });
  } else {
    // A network delivery: reserve first, so no transaction is open across it.
    const reserved = store.transaction(reserve);
    await delivery.createRequest({
      requestId: reserved.public_id,
      businessId: business.id,
      channel: body.channel,
      status: 'sending',
      scheduledFor: null,
      at: now,
    });
    legs = await deliverAll(ctx, messages);
    const refusal = contactRefusal(legs);
    if (refusal) {
      // Refused for the contact: nothing reached anyone, so nothing is counted or kept.
      store.transaction(() => {
        if (ctx.monthlySendAllowance > 0) store.requests.addUsage(business.id, month, -1);
        store.requests.discard(reserved.id);
      });
      await delivery.discard(reserved.public_id);
      await afterDelivery(ctx, business.id, legs, ctx.now());
      throw refusal;
    }
    done = store.transaction(() => completeSend(ctx, reserved, legs));
  }
  const at = ctx.now();
  await delivery.recordLegs(
    done.row.public_id,
    business.id,
    legRecords(ctx, legs),
    requestStatusOf(legs),
    at,
  );
  await afterDelivery(ctx, business.id, legs, at);
  return sendAnswer(done, legs, reviewLink);
}

/** The answer to a send, or its refusal when every leg failed. */
function sendAnswer(
  done: ReturnType<typeof completeSend>,
  legs: LegOutcome[],
  reviewLink: string,
): SendOutcome {
  const { row: finished, warning, error, allFailed } = done;
  if (allFailed) throw new AppError('delivery_failed', error!);
  const unknown = requestStatusOf(legs) === 'unknown';
  const result: SendResult = {
    requestId: finished.public_id,
    status: unknown ? SEND_STATUS_UNKNOWN : SEND_STATUS_SENT,
    channel: finished.channel,
    reviewLink,
  };
  if (warning) result.warning = warning;
  return { result, request: finished, legs };
}

/** Records each leg's outcome and the request's (call in a transaction). */
export function completeSend(ctx: SendContext, reserved: RequestRow, legs: LegOutcome[]) {
  const { store } = ctx;
  const failed = legs.filter((l) => l.outcome.status === 'failed');
  const unknown = legs.filter((l) => l.outcome.status === 'unknown');
  const allFailed = legs.length > 0 && failed.length === legs.length;
  const describe = (l: LegOutcome) =>
    `${LEG_NAMES[l.message.channel]}: ${l.outcome.status === 'accepted' ? 'accepted' : l.outcome.error}`;
  // docs/api.md: with channel both, one delivery may fail while the other succeeds; the caller must
  // check warning. It names the failed leg so the caller knows which contact to fix. A leg whose
  // outcome is unknown is named too: it may or may not have gone out.
  const troubled = [...failed, ...unknown];
  const warning =
    !allFailed && troubled.length > 0 && troubled.length < legs.length
      ? `${troubled.map(describe).join(' ')} The other delivery was accepted.`
      : !allFailed && unknown.length > 0
        ? troubled.map(describe).join(' ')
        : null;
  const error = allFailed ? `${ERROR_CODES.delivery_failed.message} ${failed.map(describe).join(' ')}` : null;
  const at = ctx.now();
  for (const { message, outcome } of legs) {
    store.outbox.insert({
      requestId: reserved.id,
      channel: message.channel,
      to: message.to,
      subject: message.subject,
      body: message.body,
      reviewLink: message.reviewLink,
      status: outcome.status === 'failed' ? 'failed' : 'accepted',
      error: outcome.status === 'accepted' ? null : outcome.error,
      createdAt: at,
    });
  }
  const month = monthOf(reserved.created_at);
  // Nothing reached the customer: give back the allowance; the failed status keeps the attempt
  // out of the frequency cap.
  if (allFailed && ctx.monthlySendAllowance > 0) store.requests.addUsage(reserved.business_id, month, -1);
  const failedLeg = !allFailed && failed.length === 1 ? failed[0]!.message.channel : null;
  const row = store.requests.finish(reserved.id, allFailed ? 'failed' : 'sent', {
    failedLeg,
    warning,
    error,
  });
  return { row, warning, error, allFailed };
}
