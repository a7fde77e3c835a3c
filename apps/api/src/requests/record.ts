import type { Logger } from '@review-desk/server/log';
import type { NewLeg } from '../delivery/store.ts';
import { monthOf } from '../store/time.ts';
import { afterDelivery } from './after-delivery.ts';
import type { Carriers, LegOutcome } from './deliver.ts';
import { contactRefusal, legRecords, outcomeOf, type RequestOutcome } from './outcome.ts';
import type { SendStore } from './send-store.ts';
import type { RequestRow } from './store.ts';
import type { SendPlan } from './validate.ts';

// Step 4 of a send (send.ts): what the carriers answered, recorded. A held send has nothing to
// record yet, and one whose outcomes were known was recorded with its reservation; one handed to
// a carrier over the network is finished in one transaction — or forgotten, and refused, when
// the carrier's only answer is about the contact. After the commit: the outbox's receipts, the
// opt-outs the carrier reported (after-delivery.ts, for held sends and reminders too), and the
// request's reminder.

export type Recording = Carriers & {
  sends: SendStore;
  /** The reminder after a send (reminders/reminders.ts). */
  reminders: { schedule(request: RequestRow, afterDays: number): Promise<unknown> };
  logger: Logger;
  monthlySendAllowance: number;
  now: () => number;
};

/** The request as recorded; no outcome while it is held. */
export type Recorded = { row: RequestRow; legs: LegOutcome[]; outcome: RequestOutcome | null };

export async function record(
  ctx: Recording,
  plan: SendPlan,
  reserved: RequestRow,
  legs: LegOutcome[],
): Promise<Recorded> {
  const outcome = plan.held ? null : outcomeOf(legs);
  // Refused by the carrier for the contact: nothing reached anyone, so nothing is counted or kept.
  const refusal = plan.held || plan.known ? null : contactRefusal(legs);
  const records = legRecords(ctx.delivery, legs);
  const month = ctx.monthlySendAllowance > 0 ? plan.month : null;
  let row = reserved;
  if (refusal) await ctx.sends.discard(reserved, month);
  else if (outcome && !plan.known)
    row = await ctx.sends.finish(
      reserved,
      { outcome, legs, records, allowanceMonth: outcome.allFailed ? month : null },
      ctx.now(),
    );
  if (!plan.held) await afterDelivery(ctx, reserved.business_id, legs, ctx.now());
  if (refusal) throw refusal;
  // Its reminder, if the business has one (held sends too). The send stands whatever happens here.
  try {
    await ctx.reminders.schedule(row, plan.reminderAfterDays);
  } catch (error) {
    ctx.logger.warn({ err: error, requestId: row.public_id }, 'scheduling the reminder failed');
  }
  return { row, legs, outcome };
}

/** Records the outcome of a request reserved before its delivery (a send's, or a held one's). */
export function finish(
  ctx: Recording,
  reserved: RequestRow,
  done: { outcome: RequestOutcome; legs: LegOutcome[]; records: NewLeg[] },
): Promise<RequestRow> {
  const allowanceMonth = allowanceBack(ctx, reserved, done.outcome.allFailed);
  return ctx.sends.finish(reserved, { ...done, allowanceMonth }, ctx.now());
}

/** Nothing reached the customer: the month to give the allowance back to (the failed status keeps the attempt out of the cap). */
function allowanceBack(ctx: Recording, reserved: RequestRow, nothingWent: boolean): string | null {
  return nothingWent && ctx.monthlySendAllowance > 0 ? monthOf(reserved.created_at) : null;
}
