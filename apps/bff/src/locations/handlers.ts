import type { Logger } from 'pino';
import type { ContactHasher } from '../journal/contact.ts';
import type { Journal } from '../journal/journal.ts';
import type { AccessLog } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import { createUpstreamHeaders } from '../proxy/headers.ts';
import { createReadForwarder, type ReadForwarder } from '../proxy/reads.ts';
import { createSendHandler, type SendHandler } from '../proxy/send.ts';
import type { ReviewJournal } from '../replies/journal.ts';
import { createReviewWrites, type ReviewWrites } from '../replies/writes.ts';
import type { RoutedLocation } from './directory.ts';

// Each location's own forwarders: its key, auth scheme and Origin are built into its upstream
// headers and go only to its own upstream, over its own keep-alive agent. Built on first use and
// rebuilt when the location's upstream or key changes; one entry per location (never per request),
// keyed by the location's id.

export type LocationHandlers = { reads: ReadForwarder; send: SendHandler; reviewWrites: ReviewWrites };

export function createHandlerSet(deps: {
  journal: Journal;
  reviewJournal: ReviewJournal;
  hasher: ContactHasher;
  logger: Logger;
  log: AccessLog;
  metrics: Metrics;
}) {
  const built = new Map<string, LocationHandlers & { version: number }>();
  /**
   * Replaced handlers whose sends were still in flight: kept until those finish (so shutdown
   * waits for them), then dropped. Each key rotation adds at most one while sends are in flight.
   */
  const retired = new Set<SendHandler>();
  const prune = () => {
    for (const send of retired) if (send.inFlight() === 0) retired.delete(send);
  };

  return {
    forLocation(location: RoutedLocation): LocationHandlers {
      const found = built.get(location.id);
      if (found && found.version === location.version) return found;
      prune();
      if (found && found.send.inFlight() > 0) retired.add(found.send);
      const upstreamHeaders = createUpstreamHeaders(location.upstream);
      const handlers = {
        version: location.version,
        reads: createReadForwarder({
          upstream: location.upstream,
          upstreamHeaders,
          logger: deps.logger,
          metrics: deps.metrics,
        }),
        send: createSendHandler({
          upstream: location.upstream,
          location: location.id,
          journal: deps.journal,
          hasher: deps.hasher,
          upstreamHeaders,
          log: deps.log,
          metrics: deps.metrics,
        }),
        reviewWrites: createReviewWrites({
          upstream: location.upstream,
          location: location.id,
          journal: deps.reviewJournal,
          upstreamHeaders,
        }),
      };
      built.set(location.id, handlers);
      return handlers;
    },
    /** Replaced handlers still finishing sends (for tests: it stays bounded). */
    retiredCount(): number {
      prune();
      return retired.size;
    },
    /** Lets every send in flight, on any location, finish. */
    async drain(): Promise<void> {
      await Promise.all(
        [...built.values()].map((h) => h.send.drain()).concat([...retired].map((s) => s.drain())),
      );
      prune();
    },
  };
}
export type HandlerSet = ReturnType<typeof createHandlerSet>;
