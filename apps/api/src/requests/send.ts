import { alreadyRequested, answer, existingAnswer, refusal, type Sent } from './answer.ts';
import { deliver } from './deliver.ts';
import type { Origin } from './origins.ts';
import { type Recording, record } from './record.ts';
import { type Reserving, reserve } from './reserve.ts';
import { reviewLinkFor, type Sender, type Validating, validate } from './validate.ts';

// POST /api/v1/requests/send (docs/api.md, "Sending"), read top to bottom. Each step is a
// function of its own file in this folder:
//   validate  the body against the shared schema; the contacts the channel messages, when it
//             goes (held for its own time, or outside the business's sending hours), the words
//   reserve   the externalId claimed, opt-outs, frequency cap and monthly allowance checked and
//             the request written with its delivery record, in one commit (send-store.ts) — or
//             refused, leaving nothing; an externalId seen before answers the request it made
//   deliver   each message handed to its carrier, with no transaction open (none while held)
//   record    the carriers' answers, the outbox's receipts and the carrier's opt-outs, the reminder
//   answer    the result, delivery_failed when every message failed, or the checks' refusal
// When every outcome is known before anything is written (the outbox decides without I/O; a link
// sends nothing), the reservation writes the request already finished: one commit in all.

export type SendContext = Validating & Reserving & Recording;
export type { Sent };

/** `source`: where an automatic send's contact came from (a point of sale's sale); none by hand. */
export async function sendReviewRequest(
  ctx: SendContext,
  key: Sender,
  body: unknown,
  source: Origin['source'] = null,
): Promise<Sent> {
  const plan = await validate(ctx, key, body, source);
  try {
    const reserved = await reserve(ctx, plan);
    const legs = await deliver(ctx, plan);
    const recorded = await record(ctx, plan, reserved, legs);
    return answer(plan, recorded);
  } catch (error) {
    const existing =
      alreadyRequested(error) && (await ctx.sends.existing(key.businessId, plan.send.externalId!));
    if (existing) return existingAnswer(existing, (token) => reviewLinkFor(ctx.publicOrigin, token));
    throw refusal(ctx, error);
  }
}
