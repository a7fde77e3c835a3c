import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '@review-desk/server/clock';
import { processRunning } from '@review-desk/server/jobs/instances';
import type { Logger } from '@review-desk/server/log';
import type { SecretBox } from '@review-desk/server/secrets';
import type { Store } from '../store/index.ts';
import { type AttemptResult, attemptDelivery } from './attempt.ts';
import type { EndpointRow } from './endpoints-store.ts';
import type { DeliveryRow } from './outbox-store.ts';
import { outcomeRecorder } from './outcomes.ts';
import { secretsOf } from './service.ts';
import { webhookHeaders } from './sign.ts';

// Delivering the outbox (docs/api.md, "Webhooks"). Every process runs one: it claims
// due deliveries under a lease (so of several processes one attempts each), at most PER_ENDPOINT
// of an endpoint at a time and none of an endpoint it is still attempting — one endpoint that
// hangs holds its own lane for the 5 s timeout, never the others'. A failure is retried after
// the next of WEBHOOK_RETRY_DELAYS_MS (about three days in all) with the same webhook-id and body;
// after the last, an endpoint that has had no success since the event is paused. A process that
// died mid-attempt leaves its claims to be taken again: at once when it ran on this host and is
// gone, else when their lease runs out — so an event may arrive twice, never not at all.

const PER_ENDPOINT = 4;
const SLOTS = 64;
const POLL_MS = 250;
const LEASE_MS = 30_000;
const RECLAIM_EVERY_MS = 5_000;
/** A lane that ends looks again this much later, so that lanes ending together share a claim. */
const LOOK_AFTER_MS = 5;
/** Above this share of its time busy, the process delivers at most BUSY_SLOTS at once. */
const BUSY_SHARE = 0.5;
const BUSY_SLOTS = 8;
const BUSY_LOOK_AFTER_MS = 25;

export type DispatcherOptions = {
  store: Store;
  box: SecretBox;
  clock: Clock;
  logger: Logger;
  allowPrivate: boolean;
  /** Extra trust anchors for the receivers' certificates (tests' own authority). */
  ca?: string | undefined;
};

export function startDispatcher(options: DispatcherOptions) {
  const { store, box, clock, logger } = options;
  const outbox = store.events.outbox;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const lanes = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let looking: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let reclaimedAt = 0;

  async function reclaim() {
    if (Date.now() - reclaimedAt < RECLAIM_EVERY_MS) return;
    reclaimedAt = Date.now();
    await outbox.reclaim(Date.now(), clock.now());
    // Claims of a process of this host that is gone are taken at once.
    for (const other of await outbox.leaseOwners()) {
      const [host, pid] = other.split(':');
      if (other !== owner && host === hostname() && !processRunning(Number(pid)))
        await outbox.reclaim(0, clock.now(), other);
    }
  }

  // Deliveries give way to the service's answers: while its event loop was busy, fewer are claimed
  // and lanes that end look again later (the burst takes longer; the sends do not).
  let loop = performance.eventLoopUtilization();
  const busy = () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, loop).utilization;
    loop = now;
    return share > BUSY_SHARE;
  };
  let yielding = false;

  async function look(): Promise<void> {
    do {
      again = false;
      await reclaim();
      yielding = busy();
      const free = (yielding ? BUSY_SLOTS : SLOTS) - running.size;
      if (free <= 0 || stopped) return;
      const rows = await outbox.claim({
        owner,
        leaseUntil: Date.now() + LEASE_MS,
        now: clock.now(),
        busy: [...lanes.keys()],
        perEndpoint: PER_ENDPOINT,
        limit: free,
      });
      const byEndpoint = new Map<string, DeliveryRow[]>();
      for (const row of rows)
        byEndpoint.set(row.endpoint_id, [...(byEndpoint.get(row.endpoint_id) ?? []), row]);
      for (const [id, claimed] of byEndpoint) lane(id, claimed);
      if (rows.length === free) again = true;
    } while (again && !stopped);
  }

  function lane(endpointId: string, rows: DeliveryRow[]) {
    lanes.set(endpointId, rows.length);
    const work = (async () => {
      const endpoint = await store.webhookEndpoints.byId(endpointId);
      if (!endpoint) return; // removed meanwhile, with its deliveries
      const results = await Promise.all(rows.map((row) => attempt(endpoint, row)));
      await recorder.record(rows.map((row, i) => ({ endpoint, row, result: results[i]! })));
    })()
      .catch((error) =>
        logger.warn({ err: error, endpoint: endpointId }, 'a webhook delivery could not be recorded'),
      )
      .finally(() => {
        lanes.delete(endpointId);
        running.delete(work);
        wake(yielding ? BUSY_LOOK_AFTER_MS : LOOK_AFTER_MS);
      });
    running.add(work);
  }

  function attempt(endpoint: EndpointRow, row: DeliveryRow): Promise<AttemptResult> {
    // The timestamp is the attempt's, on the system clock: receivers compare it with theirs.
    const headers = webhookHeaders(
      secretsOf(box, endpoint, clock.now()),
      row.event_id,
      Date.now(),
      row.payload,
    );
    return attemptDelivery(endpoint.url, headers, row.payload, {
      allowPrivate: options.allowPrivate,
      ca: options.ca,
    });
  }

  const recorder = outcomeRecorder({ store, owner, clock, logger });

  let soon: NodeJS.Timeout | undefined;
  /** Looks for due deliveries now, or after `ms` (lanes ending together share one look). */
  function wake(ms = 0) {
    if (stopped) return;
    if (looking) {
      again = true;
      return;
    }
    if (ms > 0) {
      soon ??= setTimeout(() => {
        soon = undefined;
        wake();
      }, ms);
      return;
    }
    looking = look()
      .catch((error) => logger.warn({ err: error }, 'looking for webhook deliveries failed'))
      .finally(() => {
        looking = undefined;
      });
  }

  const timer = setInterval(wake, POLL_MS);
  timer.unref();
  const unsubscribe = clock.onChange?.(() => wake());
  wake();

  return {
    wake,
    /** Attempts every due delivery, and what those lead to, until none is due (tests, the CLI). */
    async drain(): Promise<void> {
      for (;;) {
        wake();
        await looking;
        if (running.size === 0) return;
        await Promise.allSettled([...running]);
      }
    },
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      clearTimeout(soon);
      unsubscribe?.();
      await looking;
      await Promise.allSettled([...running]);
    },
  };
}
export type Dispatcher = ReturnType<typeof startDispatcher>;
