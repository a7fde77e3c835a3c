import type { Clock } from '@review-desk/server/clock';
import type { LockKey } from '@review-desk/server/db/types';
import { AppError } from '@review-desk/server/errors';
import {
  MESSAGES,
  type MessageTemplates,
  nextAllowedSendTime,
  type RequestStatus,
  SEND_STATUS_SCHEDULED,
  SEND_STATUS_SENT,
  SEND_STATUS_UNKNOWN,
  type SendRequest,
  type SendResult,
  type SendWindow,
} from '@review-desk/shared';
import type { AuthenticatedKey } from '../accounts/keys.ts';
import { composeMessages } from '../delivery/messages.ts';
import type { DeliveryProvider } from '../delivery/provider.ts';
import type { NewLeg } from '../delivery/store.ts';
import type { DeliveryTracker } from '../delivery/tracker.ts';
import { randomToken, requestPublicId } from '../ids.ts';
import type { Store } from '../store/index.ts';
import { Refused } from '../store/refusals.ts';
import { DAY_MS, monthOf } from '../store/time.ts';
import {
  afterDelivery,
  contactRefusal,
  deliverAll,
  type LegOutcome,
  legRecords,
  requestStatusOf,
} from './legs.ts';
import { type Completed, completedAs, completeSend, outcomeOf, recordOutcome } from './outcome.ts';
import { holdRequest } from './scheduled.ts';
import { emailKey, type FinishedAs, type RequestRow } from './store.ts';

// POST /api/v1/requests/send (docs/api.md). A request is reserved (opt-out, frequency cap and
// allowance checked in one transaction under a lock per contact, and the allowance taken by one
// conditional UPSERT, so two concurrent sends cannot both pass, in one process or across
// replicas), delivered, then finished with the outcome. With a network delivery (SMTP, Twilio)
// the reservation is committed first, so a slow carrier never holds a transaction open.

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

export function reviewLinkFor(publicOrigin: string, token: string): string {
  return `${publicOrigin}/r/${token}`;
}

/** The locks a send to these contacts takes, in one order for every send. */
function contactLockKeys(businessId: number, phone: string | null, email: string | null): string[] {
  const keys = [phone, emailKey(email)].filter((c): c is string => c !== null);
  return keys.map((c) => `${businessId}:${c}`).sort();
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
  // Outside the business's sending hours a message is held until they open; a link never is.
  const hours = sendsMessage && ctx.quietHoursFor ? await ctx.quietHoursFor(business.id) : null;
  const sendAt = hours ? nextAllowedSendTime(now, hours.window, hours.timeZone) : now;

  const token = randomToken(32);
  const publicId = requestPublicId();
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

  // Sends to one contact queue behind these locks, taken before the statements they guard, so
  // the cap's read and the insert see every other replica's send.
  const locks: LockKey[] =
    ctx.frequencyCapDays > 0
      ? contactLockKeys(business.id, phone, email).map((key) => ({ namespace: 'contact', key }))
      : [];
  /**
   * Checks opt-out, cap and allowance and records the request, in a transaction it may share
   * with other sends (Database.transactionTogether): as being sent, or as finished when the
   * outcome is already known. Every statement is issued before any answer is awaited, and each
   * check refuses by itself (store/refusals.ts): a refused send leaves nothing, its allowance
   * included.
   */
  const reserve = (
    finished?: FinishedAs,
    /** Writes issued right after the insert, in the same round trip (they name the request). */
    alongside?: () => Promise<unknown>,
  ): Promise<RequestRow> => {
    const checks = [
      store.requests.refuseOptedOut(business.id, phone, email),
      // A phone that texted STOP to the business's number.
      phone ? delivery.refuseStopped(business.id, phone) : undefined,
      ctx.frequencyCapDays > 0 && (phone || email)
        ? store.requests.refuseContacted(business.id, phone, email, now - ctx.frequencyCapDays * DAY_MS)
        : undefined,
      // docs/api.md: beyond the sending allowance → 403. Links send nothing and are not counted.
      sendsMessage && ctx.monthlySendAllowance > 0
        ? store.requests.takeUsageOrRefuse(business.id, month, ctx.monthlySendAllowance)
        : undefined,
    ];
    const inserted = store.requests.insert(
      {
        publicId,
        token,
        businessId: business.id,
        apiKeyId: key.id,
        channel: body.channel,
        customerName: body.customerName ?? null,
        customerPhone: body.customerPhone ?? null,
        customerEmail: body.customerEmail ?? null,
        createdAt: now,
      },
      finished,
    );
    return Promise.all([inserted, alongside?.(), ...checks]).then(
      ([row]) => row,
      (error: unknown) => {
        throw refusalAnswer(ctx, error);
      },
    );
  };

  if (sendAt > now) {
    const reserved = await store.transactionTogether(() => reserve(), locks);
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

  const deliveryRecord = (status: RequestStatus, legs?: NewLeg[]) =>
    delivery.createRequest({
      requestId: publicId,
      businessId: business.id,
      channel: body.channel,
      status,
      scheduledFor: null,
      at: now,
      ...(legs ? { legs } : {}),
    });
  let legs: LegOutcome[];
  let done: Completed;
  if (messages.every((message) => ctx.delivery.decideNow?.(message) != null)) {
    // Outcomes known without I/O (the outbox, a link): the whole send is one transaction, and the
    // request is written already finished.
    legs = await deliverAll(ctx, messages);
    const outcome = outcomeOf(legs);
    // The delivery record and the outbox's rows go out with the reservation: one round trip.
    const alongside = () =>
      Promise.all([
        deliveryRecord(requestStatusOf(legs), legRecords(ctx, legs)),
        recordOutcome(ctx, { public_id: publicId, business_id: business.id, created_at: now }, legs, outcome),
      ]);
    const row = await store.transactionTogether(() => reserve(outcome, alongside), locks);
    done = completedAs(row, outcome);
  } else {
    // A network delivery: reserve first, so no transaction is open across it.
    const reserved = await store.transactionTogether(() => reserve(), locks);
    await deliveryRecord('sending');
    legs = await deliverAll(ctx, messages);
    const refusal = contactRefusal(legs);
    if (refusal) {
      // Refused for the contact: nothing reached anyone, so nothing is counted or kept.
      await store.transaction(async () => {
        if (ctx.monthlySendAllowance > 0) await store.requests.addUsage(business.id, month, -1);
        await store.requests.discard(reserved.id);
        await delivery.discard(reserved.public_id);
      });
      await afterDelivery(ctx, business.id, legs, ctx.now());
      throw refusal;
    }
    done = await store.transaction(async () => {
      const completed = await completeSend(ctx, reserved, legs);
      const records = legRecords(ctx, legs);
      await delivery.recordLegs(reserved.public_id, business.id, records, requestStatusOf(legs), ctx.now());
      return completed;
    });
  }
  await afterDelivery(ctx, business.id, legs, ctx.now());
  return sendAnswer(done, legs, reviewLink);
}

/** A refused send's answer (store/refusals.ts); any other failure as it is. */
function refusalAnswer(ctx: SendContext, error: unknown): unknown {
  if (!(error instanceof Refused)) return error;
  if (error.reason === 'frequency_capped')
    return new AppError('frequency_capped', MESSAGES.frequencyCap(ctx.frequencyCapDays));
  if (error.reason === 'allowance_exceeded')
    return new AppError('allowance_exceeded', MESSAGES.allowanceExceeded(ctx.monthlySendAllowance));
  return new AppError('opted_out');
}

/** The answer to a send, or its refusal when every leg failed. */
function sendAnswer(done: Completed, legs: LegOutcome[], reviewLink: string): SendOutcome {
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
