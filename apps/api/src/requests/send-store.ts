import type { Clock } from '@review-desk/server/clock';
import type { LockKey } from '@review-desk/server/db/types';
import { jobStore, type NewJob } from '@review-desk/server/jobs/store';
import type { RequestRecord, RequestStatus } from '@review-desk/shared';
import type { NewLeg } from '../delivery/store.ts';
import type { DeliveryTracker } from '../delivery/tracker.ts';
import type { Store } from '../store/index.ts';
import { monthOf } from '../store/time.ts';
import type { LegOutcome } from './deliver.ts';
import type { Origin } from './origins.ts';
import type { RequestOutcome } from './outcome.ts';
import { toRequestRecord } from './record-view.ts';
import type { NewRequest, RequestRow } from './store.ts';

// The send's writes, one call each (send.ts). `reserve`: the checks that may refuse the send and
// the request with its delivery record, in one commit it may share with other sends
// (Database.transactionTogether): the contacts' locks first, every statement issued before any
// answer is awaited, and each check refusing by itself — on PostgreSQL the statement raises it
// (store/refusals.ts) — so a refused send leaves nothing, its allowance included. `finish` and
// `discard`: what a carrier reached over the network answered. Whatever differs between the two
// engines stays below this file.

export type Checks = {
  businessId: number;
  /** The contacts the channel messages: either opted out refuses the send. */
  phone: string | null;
  email: string | null;
  /** The number texts go from: a STOP texted to it holds for every business. */
  sender: string | null;
  /** Sends to these contacts since then count toward the frequency cap; null: no cap applies. */
  capSince: number | null;
  /** The month's allowance to take one message from; null: not counted (a link, or no allowance). */
  allowance: { month: string; limit: number } | null;
  locks: LockKey[];
};

/** What the reservation writes beside the request. */
export type Written =
  /** Handed to a carrier once committed: the delivery record says so meanwhile. */
  | { as: 'sending' }
  /** Held for the sending hours: its legs as they wait, and the job that sends them. */
  | { as: 'held'; legs: NewLeg[]; sendAt: number; job: NewJob }
  /**
   * The outcomes were known before anything was written: the request finished, its legs, the
   * outbox's copies, and the allowance given back (in `allowanceMonth`) when nothing went out.
   */
  | {
      as: 'finished';
      outcome: RequestOutcome;
      legs: LegOutcome[];
      records: NewLeg[];
      allowanceMonth: string | null;
    };

/** The event of a request's outcome: it went (sent, or unknown: it may have), or nothing did. */
const outcomeEvent = (status: RequestStatus) => (status === 'failed' ? 'request.failed' : 'request.sent');

/** A request written finished, as it reads back: its event's body, built without a read. */
function writtenRecord(
  request: NewRequest,
  status: RequestStatus,
  legs: readonly NewLeg[],
  asked: { askedAt: number; origin: Origin | null },
): RequestRecord {
  const { publicId, businessId, channel } = request;
  const at = asked.askedAt;
  const row = { request_id: publicId, business_id: businessId, channel, status, scheduled_for: null };
  const { origin } = asked;
  return toRequestRecord(
    { ...row, created_at: at, updated_at: at, cancelled_at: null },
    legs.map((leg) => ({
      request_id: publicId,
      channel: leg.channel,
      kind: 'request',
      business_id: businessId,
      provider: leg.provider,
      to_addr: leg.to,
      sender: leg.sender,
      provider_message_id: leg.providerMessageId,
      state: leg.state,
      error_code: leg.errorCode,
      error: leg.error,
      segments: leg.segments,
      updated_at: at,
    })),
    null,
    origin && {
      request_id: publicId,
      business_id: businessId,
      external_id: origin.externalId,
      source: origin.source?.name ?? null,
      source_id: origin.source?.id ?? null,
      token: request.token,
      created_at: at,
    },
  );
}

/**
 * The answers of statements issued together in one transaction, or the failure of the first one
 * to fail in the order they were issued: on PostgreSQL every statement after it fails only because
 * the transaction was aborted (25P02), and may settle first. The real cause — a refusal, or a
 * deadlock the group runs again — is the answer.
 */
async function firstFailureInOrder(statements: readonly unknown[]): Promise<unknown[]> {
  const settled = await Promise.allSettled(statements);
  const failed = settled.find((answer) => answer.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((answer) => (answer as PromiseFulfilledResult<unknown>).value);
}

export function sendStore(deps: {
  store: Store;
  tracker: DeliveryTracker;
  clock: Clock;
  monthlySendAllowance: number;
}) {
  const { store, tracker } = deps;
  const jobs = jobStore(store.db, deps.clock);

  return {
    /**
     * The request reserved, or a Refused: its externalId already used, opted out, capped, or over
     * the allowance, in that order. `askedAt`: when it was asked for (a held one counts later).
     */
    async reserve(
      checks: Checks,
      request: NewRequest,
      written: Written,
      asked: { askedAt: number; origin: Origin | null },
    ): Promise<RequestRow> {
      const delivery = await tracker.store();
      const { businessId, phone, email, sender, capSince, allowance } = checks;
      const { origin } = asked;
      return store.db.transactionTogether(() => {
        const refusals = [
          // First: a point of sale's retry is answered with its request, not refused by the cap.
          origin && store.origins.claim({ ...request, createdAt: asked.askedAt }, origin),
          store.optOuts.refuse(businessId, { phone, email, sender }),
          capSince === null ? undefined : store.requests.refuseContacted(businessId, phone, email, capSince),
          allowance && store.allowance.takeOrRefuse(businessId, allowance.month, allowance.limit),
        ];
        const inserted = store.requests.insert(
          request,
          written.as === 'finished' ? written.outcome : undefined,
        );
        const record = (status: RequestStatus, legs?: NewLeg[], scheduledFor: number | null = null) =>
          delivery.createRequest({
            requestId: request.publicId,
            businessId,
            channel: request.channel,
            status,
            scheduledFor,
            at: asked.askedAt,
            ...(legs ? { legs } : {}),
          });
        const beside =
          written.as === 'sending'
            ? [record('sending')]
            : written.as === 'held'
              ? [record('scheduled', written.legs, written.sendAt), jobs.enqueue(written.job)]
              : [
                  record(written.outcome.delivery, written.records),
                  store.outbox.insertLegs(request.publicId, written.legs, request.createdAt),
                  written.allowanceMonth && store.allowance.giveBack(businessId, written.allowanceMonth),
                  // Its event in the same commit, its body known without a read.
                  store.events.recordNow(
                    businessId,
                    outcomeEvent(written.outcome.delivery),
                    writtenRecord(request, written.outcome.delivery, written.records, asked),
                    asked.askedAt,
                  ),
                ];
        return firstFailureInOrder([...refusals, inserted, ...beside]).then(
          (answers) => answers[refusals.length] as RequestRow,
        );
      }, checks.locks);
    },

    /** The request an externalId made before, as its delivery record says now. */
    async existing(businessId: number, externalId: string) {
      const origin = await store.origins.byExternalId(businessId, externalId);
      const record = origin && (await (await tracker.store()).request(businessId, origin.request_id));
      return origin && record ? { token: origin.token, record } : undefined;
    },

    /** A reserved request's outcome, its legs and its outbox copies, in one transaction. */
    async finish(
      reserved: RequestRow,
      done: { outcome: RequestOutcome; legs: LegOutcome[]; records: NewLeg[]; allowanceMonth: string | null },
      at: number,
    ): Promise<RequestRow> {
      const delivery = await tracker.store();
      return store.transaction(async () => {
        await Promise.all([
          store.outbox.insertLegs(reserved.public_id, done.legs, at),
          done.allowanceMonth && store.allowance.giveBack(reserved.business_id, done.allowanceMonth),
        ]);
        const row = await store.requests.finish(reserved.id, done.outcome.status, done.outcome);
        await delivery.recordLegs(
          reserved.public_id,
          reserved.business_id,
          done.records,
          done.outcome.delivery,
          at,
        );
        await store.events.request(
          outcomeEvent(done.outcome.delivery),
          reserved.business_id,
          reserved.public_id,
          at,
        );
        return row;
      });
    },

    /**
     * Cancels a held request before its time (DELETE /api/v1/requests/{id}): nothing goes out, it
     * counts nowhere (its allowance given back) and reads back `cancelled`. Whichever of this and
     * its job moves the delivery record off `scheduled` first wins.
     */
    async cancel(
      businessId: number,
      requestId: string,
      at: number,
    ): Promise<'cancelled' | 'not_held' | 'unknown'> {
      const delivery = await tracker.store();
      if (!(await delivery.request(businessId, requestId))) return 'unknown';
      return store.transaction(async () => {
        if (!(await delivery.cancelHeld(requestId, at))) return 'not_held';
        const row = await store.requests.byPublicId(requestId);
        if (row) {
          const month =
            row.channel !== 'link' && deps.monthlySendAllowance > 0 ? monthOf(row.created_at) : null;
          if (month) await store.allowance.giveBack(businessId, month);
          await store.requests.discard(row.id);
        }
        await Promise.all([jobs.cancel(`send:${requestId}`), jobs.cancel(`reminder:${requestId}`)]);
        return 'cancelled';
      });
    },

    /**
     * Forgets a reserved request whose only message the carrier refused for the contact: answered
     * like a refusal before sending, it counts nowhere (its allowance given back in `allowanceMonth`).
     */
    async discard(reserved: RequestRow, allowanceMonth: string | null): Promise<void> {
      const delivery = await tracker.store();
      await store.transaction(async () => {
        if (allowanceMonth) await store.allowance.giveBack(reserved.business_id, allowanceMonth);
        await store.requests.discard(reserved.id);
        await delivery.discard(reserved.public_id);
      });
    },
  };
}
export type SendStore = ReturnType<typeof sendStore>;
