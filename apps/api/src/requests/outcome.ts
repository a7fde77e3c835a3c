import { AppError } from '@review-desk/server/errors';
import { ERROR_CODES, type LegState } from '@review-desk/shared';
import type { DeliveryProvider } from '../delivery/provider.ts';
import type { NewLeg } from '../delivery/store.ts';
import type { LegOutcome } from './deliver.ts';
import type { FinishedAs } from './store.ts';

// What the carriers' answers make of a request, decided from its legs alone (pure, so a send
// whose outcomes are known before anything is written can write its request already finished):
// what it counts as with its warning or error, the status a caller reads back, each leg as the
// delivery tables keep it, and a refusal when the carrier's reason is about the contact.

const LEG_NAMES = { sms: 'SMS', email: 'Email' } as const;

export type RequestOutcome = FinishedAs & {
  /** Nothing went out: the send is answered delivery_failed and its allowance given back. */
  allFailed: boolean;
  /** The status GET /api/v1/requests answers (links: sent). */
  delivery: 'sent' | 'failed' | 'unknown';
};

export function outcomeOf(legs: readonly LegOutcome[]): RequestOutcome {
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
  const accepted = legs.some((l) => l.outcome.status === 'accepted');
  return {
    status: allFailed ? 'failed' : 'sent',
    failedLeg,
    warning,
    error,
    allFailed,
    delivery: allFailed ? 'failed' : accepted || legs.length === 0 ? 'sent' : 'unknown',
  };
}

/** The state a leg is in once its provider answered. */
function legState(outcome: LegOutcome['outcome']): LegState {
  if (outcome.status === 'failed') return 'failed';
  if (outcome.status === 'unknown') return 'unknown';
  return outcome.state ?? 'sent';
}

/** The legs as the delivery tables keep them. */
export function legRecords(delivery: DeliveryProvider, legs: readonly LegOutcome[]): NewLeg[] {
  return legs.map(({ message, outcome, messageId }) => ({
    channel: message.channel,
    provider: delivery.nameFor?.(message.channel) ?? delivery.name,
    to: message.to,
    sender: message.channel === 'sms' ? (delivery.sender?.() ?? null) : null,
    providerMessageId:
      outcome.status === 'accepted' ? (outcome.providerMessageId ?? messageId ?? null) : null,
    state: legState(outcome),
    errorCode: outcome.status === 'failed' ? (outcome.errorCode ?? null) : null,
    error: outcome.status === 'accepted' ? null : outcome.error,
    segments: outcome.status === 'accepted' ? (outcome.segments ?? null) : null,
  }));
}

/**
 * When every leg failed and the carrier's reason is about the contact, the refusal a send gets:
 * a customer who told the carrier STOP is opted out like any other, a number that cannot take
 * texts is a 400 naming customerPhone.
 */
export function contactRefusal(legs: readonly LegOutcome[]): AppError | null {
  if (legs.length === 0 || legs.some((l) => l.outcome.status !== 'failed')) return null;
  const refusals = legs.map((l) => (l.outcome.status === 'failed' ? l.outcome : null));
  if (refusals.some((r) => r?.refusal === 'opted_out')) return new AppError('opted_out');
  const invalid = refusals.find((r) => r?.refusal === 'invalid_number');
  if (invalid)
    return new AppError('validation_failed', invalid.error, { fields: { customerPhone: invalid.error } });
  return null;
}
