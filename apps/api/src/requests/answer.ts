import { AppError } from '@review-desk/server/errors';
import {
  MESSAGES,
  SEND_STATUS_SCHEDULED,
  SEND_STATUS_SENT,
  SEND_STATUS_UNKNOWN,
  type SendResult,
} from '@review-desk/shared';
import type { DeliveryRequestRow } from '../delivery/store.ts';
import { Refused } from '../store/refusals.ts';
import type { LegOutcome } from './deliver.ts';
import type { Recorded } from './record.ts';
import type { RequestRow } from './store.ts';
import type { SendPlan } from './validate.ts';

// Step 5 of a send (send.ts): the result — held until the sending hours, sent (accepted by a
// carrier: not delivered), or of unknown outcome (a message may have gone) — or delivery_failed
// when every message failed; or the refusal of a send its checks refused.

/** A send's answer, with the request as recorded and its legs (for the route's log line). */
export type Sent = { result: SendResult; request: RequestRow | null; legs: LegOutcome[] };

export function answer(plan: SendPlan, { row, legs, outcome }: Recorded): Sent {
  const result: SendResult = {
    requestId: row.public_id,
    status: SEND_STATUS_SENT,
    channel: row.channel,
    reviewLink: plan.reviewLink,
  };
  if (outcome === null)
    return {
      result: { ...result, status: SEND_STATUS_SCHEDULED, scheduledFor: new Date(plan.sendAt).toISOString() },
      request: row,
      legs: [],
    };
  if (outcome.allFailed) throw new AppError('delivery_failed', outcome.error!);
  if (outcome.delivery === 'unknown') result.status = SEND_STATUS_UNKNOWN;
  if (outcome.warning) result.warning = outcome.warning;
  return { result, request: row, legs };
}

/** Whether the send's externalId had made a request before (requests/origins.ts). */
export function alreadyRequested(error: unknown): boolean {
  return error instanceof Refused && error.reason === 'already_requested';
}

/**
 * docs/api.md, "Sending later": the same externalId for a business is the same request. The answer
 * names that request as it is now; nothing is written or sent.
 */
export function existingAnswer(
  found: { token: string; record: DeliveryRequestRow },
  reviewLink: (token: string) => string,
): Sent {
  const { record } = found;
  const result: SendResult = {
    requestId: record.request_id,
    status: record.cancelled_at !== null ? 'cancelled' : record.status,
    channel: record.channel,
    reviewLink: reviewLink(found.token),
    existing: true,
  };
  if (record.status === 'scheduled' && record.scheduled_for !== null)
    result.scheduledFor = new Date(record.scheduled_for).toISOString();
  return { result, request: null, legs: [] };
}

/** A send its checks refused (store/refusals.ts), as the API answers it; any other failure as it is. */
export function refusal(
  limits: { frequencyCapDays: number; monthlySendAllowance: number },
  error: unknown,
): unknown {
  if (!(error instanceof Refused)) return error;
  if (error.reason === 'frequency_capped')
    return new AppError('frequency_capped', MESSAGES.frequencyCap(limits.frequencyCapDays));
  if (error.reason === 'allowance_exceeded')
    return new AppError('allowance_exceeded', MESSAGES.allowanceExceeded(limits.monthlySendAllowance));
  return new AppError('opted_out');
}
