import { ERROR_CODES } from '@review-desk/shared';
import type { Store } from '../store/index.ts';
import { monthOf } from '../store/time.ts';
import type { LegOutcome } from './legs.ts';
import type { FinishedAs, RequestRow } from './store.ts';

// What the carriers' answers make of a request (sent or failed, its warning or error), and
// recording it in the service's tables. Pure where it can be: the outcome is decided from the
// legs alone, so a send whose outcomes are known at once can insert its request already finished.

const LEG_NAMES = { sms: 'SMS', email: 'Email' } as const;

export type SendOutcomeOf = FinishedAs & { allFailed: boolean };

export type Completed = { row: RequestRow; warning: string | null; error: string | null; allFailed: boolean };

/** What to record and what to answer, from the legs' outcomes. */
export function outcomeOf(legs: readonly LegOutcome[]): SendOutcomeOf {
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
  const failedLeg = !allFailed && failed.length === 1 ? failed[0]!.message.channel : null;
  return { status: allFailed ? 'failed' : 'sent', failedLeg, warning, error, allFailed };
}

/** A recorded request with what its send answers. */
export function completedAs(row: RequestRow, outcome: SendOutcomeOf): Completed {
  return { row, warning: outcome.warning, error: outcome.error, allFailed: outcome.allFailed };
}

type Recording = { store: Store; now: () => number; monthlySendAllowance: number };

/** Each leg's message in the outbox table, and the allowance given back when none went out. */
export async function recordOutcome(
  ctx: Recording,
  request: Pick<RequestRow, 'public_id' | 'business_id' | 'created_at'>,
  legs: readonly LegOutcome[],
  outcome: SendOutcomeOf,
): Promise<void> {
  // Both issued at once (a send finishing its transaction issues everything before awaiting).
  await Promise.all([
    ctx.store.outbox.insertLegs(request.public_id, legs, ctx.now()),
    // Nothing reached the customer: give back the allowance; the failed status keeps the attempt
    // out of the frequency cap.
    outcome.allFailed && ctx.monthlySendAllowance > 0
      ? ctx.store.requests.addUsage(request.business_id, monthOf(request.created_at), -1)
      : undefined,
  ]);
}

/** Records the outcome of a request reserved before its delivery (call in a transaction). */
export async function completeSend(
  ctx: Recording,
  reserved: RequestRow,
  legs: readonly LegOutcome[],
): Promise<Completed> {
  const outcome = outcomeOf(legs);
  await recordOutcome(ctx, reserved, legs, outcome);
  return completedAs(await ctx.store.requests.finish(reserved.id, outcome.status, outcome), outcome);
}
