import { capWindowStart, MESSAGES } from '@review-desk/shared';
import type { OutgoingMessage } from '../delivery/provider.ts';
import type { DeliveryTracker } from '../delivery/tracker.ts';
import type { Store } from '../store/index.ts';
import { afterDelivery } from './after-delivery.ts';
import { deliverAll, type LegOutcome } from './deliver.ts';
import { legRecords, outcomeOf } from './outcome.ts';
import { finish, type Recording } from './record.ts';
import type { RequestRow } from './store.ts';

// Requests whose messages go out later than asked: held for their time or the sending hours, and
// those a stopped process left half-sent. A held send runs the send's own steps from deliver on
// (send.ts), with the checks made again as it leaves: opt-outs and the frequency cap (another
// request may have reached the customer meanwhile). Its month's allowance was taken when it was
// asked for, in the month it goes.

export type HeldContext = Recording & { store: Store; frequencyCapDays: number };

/** Sends a held request's messages when its time comes, and records the outcome. */
export async function deliverHeld(ctx: HeldContext, reserved: RequestRow, messages: OutgoingMessage[]) {
  const capped = await cappedSince(ctx, reserved, messages);
  const sendable: OutgoingMessage[] = [];
  const refused: LegOutcome[] = [];
  for (const message of messages) {
    const phone = message.channel === 'sms' ? message.to : null;
    const email = message.channel === 'email' ? message.to : null;
    // A customer who opted out while it was held is not messaged.
    const optedOut = await ctx.store.optOuts.optedOut(reserved.business_id, {
      phone,
      email,
      sender: ctx.delivery.sender?.() ?? null,
    });
    const why = optedOut
      ? 'The customer opted out while the request was held: not sent.'
      : capped
        ? `${MESSAGES.frequencyCap(ctx.frequencyCapDays)} Another request reached the customer while this one was held: not sent.`
        : null;
    if (why) refused.push({ message, outcome: { status: 'failed', error: why } });
    else sendable.push(message);
  }
  const legs = [...refused, ...(await deliverAll(ctx, sendable))];
  await recordHeld(ctx, reserved, legs);
}

/** The frequency cap at a held request's time: another request messaged its contacts within it. */
async function cappedSince(ctx: HeldContext, reserved: RequestRow, messages: OutgoingMessage[]) {
  if (ctx.frequencyCapDays <= 0) return false;
  const phone = messages.find((m) => m.channel === 'sms')?.to ?? null;
  const email = messages.find((m) => m.channel === 'email')?.to ?? null;
  const since = capWindowStart(ctx.now(), ctx.frequencyCapDays);
  return ctx.store.requests.contactedBesides(reserved, phone, email, since);
}

/** Records a held request's outcome (also when its first attempt was interrupted: unknown). */
export async function recordHeld(ctx: HeldContext, reserved: RequestRow, legs: LegOutcome[]) {
  const at = ctx.now();
  await finish(ctx, reserved, { outcome: outcomeOf(legs), legs, records: legRecords(ctx.delivery, legs) });
  await afterDelivery(ctx, reserved.business_id, legs, at);
}

/**
 * Requests a stopped process left mid-delivery: nobody saw their outcome. The service's record
 * counts them failed; the delivery record says `unknown`, since a text may have left before the
 * stop. Requests held for sending hours are not in flight: their scheduled job sends them.
 */
export async function recoverInterruptedSends(
  store: Store,
  tracker: DeliveryTracker,
  now: number,
): Promise<number> {
  const delivery = await tracker.store();
  const stale = await store.requests.staleSending(now - 60_000);
  let recovered = 0;
  for (const row of stale) {
    const record = await delivery.request(row.business_id, row.public_id);
    if (record?.status === 'scheduled' || record?.status === 'cancelled') continue;
    if (record?.status === 'sending' && record.updated_at > now - 60_000) continue;
    // Another replica's send of the same row may be finishing it: only the one that moves it on counts.
    const finished = await store.transaction(async (tx) => {
      await tx.lock('request', row.id);
      if ((await store.requests.byId(row.id))?.status !== 'sending') return false;
      await store.requests.finish(row.id, 'failed', {
        error: 'The service stopped before delivery finished.',
      });
      if (record) await delivery.setStatus(row.public_id, 'unknown', now);
      return true;
    });
    if (!finished) continue;
    recovered++;
  }
  return recovered;
}
