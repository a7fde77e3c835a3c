import { hash } from 'node:crypto';
import { AppError } from '@review-desk/server/errors';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeySchema, REPLY_IN_FLIGHT } from '@review-desk/shared';
import type { Request } from 'express';
import type { ReplyRow } from './store.ts';

// One reply (or withdrawal) per intent: the caller names each intent with an Idempotency-Key (a
// UUID), as the dashboard does for sends. The first attempt with a key claims it; a later attempt
// with the same key and the same request is answered with the review as it now is, and never
// delivered again; the same key for another request is refused. Pure decisions, tested by table.

/** The Idempotency-Key header, required on a reply and a withdrawal (400 without it). */
export function idempotencyKeyOf(req: Request): string {
  const raw = req.get(IDEMPOTENCY_KEY_HEADER);
  if (raw === undefined) throw new AppError('idempotency_key_missing');
  const parsed = idempotencyKeySchema.safeParse(raw);
  if (!parsed.success) throw new AppError('idempotency_key_invalid', parsed.error.issues[0]?.message);
  return parsed.data.toLowerCase();
}

/** What makes two attempts the same intent: the action, the review and what was asked. */
export function fingerprintOf(action: 'reply' | 'withdraw', reviewId: number, asked: unknown): string {
  return hash('sha256', JSON.stringify([action, reviewId, asked]), 'base64url');
}

/**
 * What an attempt whose key is already taken gets: `replay` (answer the review as it is now,
 * nothing delivered), or the refusal.
 */
export function answerExisting(existing: ReplyRow, fingerprint: string): 'replay' | AppError {
  if (existing.fingerprint !== fingerprint) return new AppError('idempotency_mismatch');
  if (REPLY_IN_FLIGHT.includes(existing.state))
    return new AppError(
      'idempotency_in_flight',
      'This reply is still being delivered (same Idempotency-Key).',
    );
  if (existing.state === 'unknown')
    return new AppError(
      'outcome_unknown',
      'Outcome unknown: this reply may or may not have been delivered. Read the review, and answer again with a new Idempotency-Key if it should go out.',
    );
  return 'replay';
}
