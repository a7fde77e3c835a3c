import { capWindowStart } from '@review-desk/shared';
import type { DeliveryProvider } from '../delivery/provider.ts';
import { legRecords, outcomeOf } from './outcome.ts';
import { heldLegs, scheduledSendJob } from './scheduled.ts';
import type { Checks, SendStore, Written } from './send-store.ts';
import { emailKey, type RequestRow } from './store.ts';
import type { SendPlan } from './validate.ts';

// Step 2 of a send (send.ts): the opt-outs, the frequency cap and the monthly allowance checked
// and the request written with its delivery record, in one store call — as being sent, as held
// for the sending hours, or already finished when its outcomes are known. Refused (a Refused,
// answered in answer.ts): nothing is kept.

export type Reserving = {
  sends: SendStore;
  delivery: DeliveryProvider;
  frequencyCapDays: number;
  monthlySendAllowance: number;
};

export async function reserve(ctx: Reserving, plan: SendPlan): Promise<RequestRow> {
  const request = {
    publicId: plan.publicId,
    token: plan.token,
    businessId: plan.key.businessId,
    apiKeyId: plan.key.id,
    channel: plan.send.channel,
    customerName: plan.send.customerName ?? null,
    customerPhone: plan.send.customerPhone ?? null,
    customerEmail: plan.send.customerEmail ?? null,
    // A held request counts from its time: the cap, the month's allowance and its day's figures.
    createdAt: countedAt(plan),
  };
  return ctx.sends.reserve(checksOf(ctx, plan), request, writtenAs(ctx, plan), {
    askedAt: plan.now,
    origin: plan.origin,
  });
}

/** When a request counts: when it goes (a held one's time), which is now for the rest. */
const countedAt = (plan: SendPlan) => (plan.held ? plan.sendAt : plan.now);

function checksOf(ctx: Reserving, plan: SendPlan): Checks {
  const { businessId } = plan.key;
  const capped = ctx.frequencyCapDays > 0 && (plan.phone !== null || plan.email !== null);
  // Sends to one contact queue behind these locks, taken before the statements they guard, so the
  // cap's read and the insert see every other replica's send. One order for every send.
  const keys = [plan.phone, emailKey(plan.email)]
    .filter((c): c is string => c !== null)
    .map((c) => `${businessId}:${c}`)
    .sort();
  return {
    businessId,
    phone: plan.phone,
    email: plan.email,
    sender: ctx.delivery.sender?.() ?? null,
    capSince: capped ? capWindowStart(countedAt(plan), ctx.frequencyCapDays) : null,
    // docs/api.md: beyond the sending allowance → 403. Links send nothing and are not counted.
    allowance:
      plan.sendsMessage && ctx.monthlySendAllowance > 0
        ? { month: plan.month, limit: ctx.monthlySendAllowance }
        : null,
    locks: capped ? keys.map((key) => ({ namespace: 'contact', key })) : [],
  };
}

function writtenAs(ctx: Reserving, plan: SendPlan): Written {
  if (plan.held)
    return {
      as: 'held',
      legs: heldLegs(ctx.delivery, plan.messages),
      sendAt: plan.sendAt,
      job: scheduledSendJob({ requestId: plan.publicId, businessId: plan.key.businessId }, plan.sendAt),
    };
  if (plan.known === null) return { as: 'sending' };
  const legs = plan.known;
  const outcome = outcomeOf(legs);
  return {
    as: 'finished',
    outcome,
    legs,
    records: legRecords(ctx.delivery, legs),
    allowanceMonth: outcome.allFailed && ctx.monthlySendAllowance > 0 ? plan.month : null,
  };
}
