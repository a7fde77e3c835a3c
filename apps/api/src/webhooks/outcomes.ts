import type { Clock } from '@review-desk/server/clock';
import type { Logger } from '@review-desk/server/log';
import { WEBHOOK_ATTEMPTS_MAX, WEBHOOK_RETRY_DELAYS_MS } from '@review-desk/shared';
import type { Store } from '../store/index.ts';
import type { AttemptResult } from './attempt.ts';
import type { EndpointRow } from './endpoints-store.ts';
import type { DeliveryRow } from './outbox-store.ts';

// What the attempts came to, recorded: delivered; due again after the next retry delay (same
// webhook-id, same body); failed after the last attempt — and the endpoint paused when it has had
// no success since that event, or at once when it answered 410 Gone (Standard Webhooks). Outcomes
// that arrive together are written in one transaction: the outbox's writes stay few beside the
// sends that share the database.

export type Outcome = { endpoint: EndpointRow; row: DeliveryRow; result: AttemptResult };

/** The wait before attempt n+1 after attempt n failed, with ±10 % jitter. */
export function retryDelay(attempt: number): number {
  const base = WEBHOOK_RETRY_DELAYS_MS[Math.min(attempt, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? 0;
  return Math.round(base * (0.9 + Math.random() * 0.2));
}

/** Why an outcome pauses its endpoint; null when it does not. */
function pauseReason({ endpoint, row, result }: Outcome): string | null {
  if (result.ok) return null;
  if (result.gone) return 'The endpoint answered 410 Gone.';
  if (row.attempts >= WEBHOOK_ATTEMPTS_MAX && (endpoint.last_success_at ?? 0) < row.created_at)
    return `Every attempt of an event failed for ${WEBHOOK_ATTEMPTS_MAX} tries over three days; the last: ${result.error}`;
  return null;
}

const GATHER_MS = 10;
const GATHER_MAX = 64;

export function outcomeRecorder(deps: { store: Store; owner: string; clock: Clock; logger: Logger }) {
  const { store, owner } = deps;
  const outbox = store.events.outbox;
  let waiting: { outcomes: Outcome[]; done: PromiseWithResolvers<void> } | null = null;
  let timer: NodeJS.Timeout | undefined;

  async function write(outcomes: Outcome[]): Promise<void> {
    const now = deps.clock.now();
    const paused = await store.transaction(async () => {
      const succeeded = new Set<string>();
      const failed = new Set<string>();
      const pauses = new Map<string, string>();
      for (const outcome of outcomes) {
        const { endpoint, row, result } = outcome;
        if (result.ok) {
          await outbox.delivered(row.id, owner, result.status, now);
          succeeded.add(endpoint.id);
          continue;
        }
        if (row.attempts >= WEBHOOK_ATTEMPTS_MAX && !result.gone)
          await outbox.failed(row.id, owner, result.status, result.error);
        else
          await outbox.retry(
            row.id,
            owner,
            result.status,
            result.error,
            result.gone ? now : now + retryDelay(row.attempts),
          );
        failed.add(endpoint.id);
        const reason = pauseReason(outcome);
        if (reason) pauses.set(endpoint.id, reason);
      }
      for (const id of succeeded) await store.webhookEndpoints.succeeded(id, now);
      for (const id of failed) await store.webhookEndpoints.failed(id, now);
      const done: EndpointRow[] = [];
      for (const [id, reason] of pauses) {
        const row = await store.webhookEndpoints.pause(id, now, reason);
        if (row) done.push(row);
      }
      return done;
    });
    for (const endpoint of paused) {
      deps.logger.warn(
        { endpoint: endpoint.id, business: endpoint.business_id, reason: endpoint.paused_reason },
        'a webhook endpoint was paused',
      );
    }
  }

  function flush() {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = null;
    if (batch) write(batch.outcomes).then(batch.done.resolve, batch.done.reject);
  }

  return {
    /** Records the outcomes with others that come within a few ms; resolves once committed. */
    record(outcomes: Outcome[]): Promise<void> {
      waiting ??= { outcomes: [], done: Promise.withResolvers<void>() };
      waiting.outcomes.push(...outcomes);
      const { promise } = waiting.done;
      if (waiting.outcomes.length >= GATHER_MAX) flush();
      else timer ??= setTimeout(flush, GATHER_MS);
      return promise;
    },
  };
}
