import { type Clock, systemClock } from '@review-desk/server/clock';
import type { JobHandler } from '@review-desk/server/jobs/runner';
import { rowChannel, type SendRequest } from '@review-desk/shared';
import { dayStart, nextDayStart } from '@review-desk/shared/bulk-days';
import type { Logger } from 'pino';
import type { ShareDecision } from '../fair-share/user-rate.ts';
import type { Delivery, DeliveryResult } from '../proxy/send.ts';
import { judgeDelivery, rowKey } from './decisions.ts';
import type { BulkJobRecord, BulkStore } from './store.ts';
import { waitUntil } from './wait.ts';

// The list send's worker: one runner job (packages/server job-runner.ts, claimed under a lease)
// sends one job's rows one at a time, in order, each through the send journal with its own key
// (decisions.ts `rowKey`). The journal is what keeps a row to one send: a row found claimed by a
// run that stopped is offered to the journal again, which replays a recorded send, or answers
// "unknown" for one that was in flight — never a second request upstream.
//
// Pacing: at most `ratePerMinute` sends a minute per job, and `dailyCap` a day when it has one; each
// row waits for the starter's fair share as their own calls do; a 429 waits its Retry-After and tries
// the same row again; 401/403 pause the job (every row would be refused alike); an upstream that
// keeps failing pauses it after `downBoundMs`. A run gives way after `sliceMs` so that other
// jobs waiting for a slot get one.

export const BULK_JOB_KIND = 'bulk-send';

export type Sender = { deliver(input: Delivery): Promise<DeliveryResult> };

export type BulkWorkerDeps = {
  store: BulkStore;
  /** This process's lease owner id: a claimed row carries it. */
  owner: string;
  /** The job's location's send path, or why the job cannot go on. */
  senderFor(job: BulkJobRecord): Promise<Sender | { reason: string }>;
  /** Words saying when this contact was last sent a request from the location within the cap window, or null. */
  recentlySent(send: SendRequest, location: string): Promise<string | null>;
  /**
   * The list's starter's fair share of the key's limit (fair-share/user-rate.ts): each row is one
   * call upstream, counted like one of their own; null: no per-user limit.
   */
  share?: { take(userId: string): Promise<ShareDecision> } | null;
  ratePerMinute: number;
  downBoundMs: number;
  sliceMs?: number;
  /** Aborted when the process stops: waits end at once and the job is left for the next run. */
  stopping: AbortSignal;
  logger: Logger;
  /** The scheduling clock (a dev hook moves it): every wait and time of the job is on it. */
  clock?: Clock;
  random?: () => number;
};

/** `run`: which run of the job this is (a resume starts a new one; the old one then stops). */
type Payload = { id: string; run?: number; downSince?: number | null };

/** How often a run looks its location's sender up again. */
const REREAD_MS = 1_000;
/** Waits longer than this end the run; the job continues at the right time in any process. */
const LONG_WAIT_MS = 30_000;

export function bulkWorker(deps: BulkWorkerDeps): JobHandler {
  const { store, owner, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const now = () => clock.now();
  const sliceMs = deps.sliceMs ?? 30_000;
  const minGapMs = 60_000 / deps.ratePerMinute;

  return async ({ job, signal }) => {
    const payload = job.payload as Payload;
    const id = payload.id;
    const stop = AbortSignal.any([signal, deps.stopping]);
    const started = now();
    let downSince = payload.downSince ?? null;
    let lastSend = 0;
    let tries = 0;
    // The location's sender (its user and reach looked up) is read again at most every REREAD_MS.
    let sender: Sender | { reason: string } | null = null;
    let readAt = Number.NEGATIVE_INFINITY;
    const later = (at: number) => ({
      continueAt: at,
      payload: { id, run: payload.run, downSince } satisfies Payload,
    });
    /** Sleeps; false when the run must stop first. */
    const wait = (ms: number) =>
      ms <= 0 ? Promise.resolve(!stop.aborted) : waitUntil(clock, now() + ms, stop);

    for (;;) {
      if (stop.aborted) return later(now());
      const bulk = await store.get(id);
      // Paused, finished or cancelled; or resumed since, and the new run has it.
      if (bulk?.status !== 'running' || (payload.run !== undefined && bulk.runs !== payload.run)) return;
      if (sender === null || now() - readAt >= REREAD_MS) {
        sender = await deps.senderFor(bulk);
        readAt = now();
      }
      if (now() - started > sliceMs) return later(now());
      const row = await store.nextOpen(id);
      if (!row) {
        await store.complete(id);
        return;
      }
      if ('reason' in sender) {
        await store.pause(id, sender.reason);
        return;
      }
      // At most `dailyCap` rows a day: once today's are out, the run ends and the job is due again
      // at the next day's start (in the jobs table, so any process takes it then, under its lease).
      if (bulk.dailyCap !== null) {
        const at = now();
        if ((await store.sentSince(id, dayStart(at, bulk.timeZone))) >= bulk.dailyCap)
          return later(nextDayStart(at, bulk.timeZone));
      }
      if (!(await wait(lastSend + minGapMs - now()))) return later(now());
      // A row left `sending` by a run that stopped goes to the journal again (see above).
      const fresh = row.outcome === 'pending';
      // Claimed by another run in this process, still sending it: wait for its outcome.
      if (!(await store.claimRow(id, row.index, owner))) {
        if (!(await wait(50))) return later(now());
        continue;
      }
      // Stored with only the contact it goes to (checkBulkRow), so its channel follows from it.
      const send: SendRequest = { ...row.send, channel: rowChannel(row.send, bulk.channel) };
      if (bulk.skipRecent && fresh && row.generation === 0) {
        const recent = await deps.recentlySent(send, bulk.location);
        if (recent !== null) {
          await store.settleRow(id, row.index, owner, {
            outcome: 'skipped',
            code: 'recently_sent',
            detail: recent,
          });
          continue;
        }
      }

      // The row is a call upstream on the starter's behalf: it waits for their share like their own.
      const share = deps.share ? await deps.share.take(bulk.createdBy) : null;
      if (share && !share.allowed) {
        await store.releaseRow(id, row.index, owner);
        const ms = share.retryAfterSeconds * 1_000;
        if (ms > LONG_WAIT_MS) return later(now() + ms);
        if (!(await wait(ms))) return later(now());
        continue;
      }

      lastSend = now();
      let result: DeliveryResult;
      try {
        result = await sender.deliver({
          user: { id: bulk.createdBy, email: bulk.createdByEmail },
          key: rowKey(id, row.index, row.generation),
          send,
          requestId: `bulk-${id.slice(0, 8)}-${row.index}`,
        });
      } catch (error) {
        // Whether the journal's claim or its outcome failed cannot be told apart here.
        logger.error({ err: error, bulk: id, row: row.index }, 'a list send row could not be sent');
        await store.settleRow(id, row.index, owner, {
          outcome: 'unknown',
          code: 'internal',
          detail:
            'The dashboard server failed while sending this row: it may have been sent. Check recent requests.',
        });
        continue;
      }
      const verdict = judgeDelivery(result, tries + 1, now(), deps.random);
      if (verdict.kind === 'row') {
        tries = 0;
        downSince = null;
        await store.settleRow(id, row.index, owner, verdict.result);
        continue;
      }
      await store.releaseRow(id, row.index, owner);
      if (verdict.kind === 'pause') {
        await store.pause(id, verdict.reason);
        logger.warn({ bulk: id, reason: verdict.reason }, 'list send paused');
        return;
      }
      tries++;
      if (verdict.down) {
        downSince ??= now();
        if (now() - downSince >= deps.downBoundMs) {
          const minutes = Math.max(1, Math.round((now() - downSince) / 60_000));
          await store.pause(
            id,
            `The review service has not accepted a request for about ${minutes} minute${minutes === 1 ? '' : 's'}: ${verdict.reason}`,
          );
          return;
        }
      } else downSince = null;
      if (verdict.ms > LONG_WAIT_MS) return later(now() + verdict.ms);
      if (!(await wait(verdict.ms))) return later(now());
    }
  };
}
