import type { Logger } from 'pino';
import type { Config } from '../env.ts';
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
// rebuilt when the location's upstream or key changes; one entry per location (never per request).

export type LocationHandlers = { reads: ReadForwarder; send: SendHandler; reviewWrites: ReviewWrites };

export function createHandlerSet(deps: {
  config: Config;
  journal: Journal;
  reviewJournal: ReviewJournal;
  hasher: ContactHasher;
  logger: Logger;
  log: AccessLog;
  metrics: Metrics;
}) {
  const built = new Map<string, LocationHandlers & { version: number }>();
  /** Replaced handlers: their sends in flight still finish before shutdown. */
  const retired: SendHandler[] = [];

  return {
    forLocation(location: RoutedLocation): LocationHandlers {
      const found = built.get(location.slug);
      if (found && found.version === location.version) return found;
      if (found) retired.push(found.send);
      const config = { ...deps.config, upstream: location.upstream };
      const upstreamHeaders = createUpstreamHeaders(location.upstream);
      const handlers = {
        version: location.version,
        reads: createReadForwarder({ config, upstreamHeaders, logger: deps.logger, metrics: deps.metrics }),
        send: createSendHandler({
          config,
          location: location.slug,
          journal: deps.journal,
          hasher: deps.hasher,
          upstreamHeaders,
          log: deps.log,
          metrics: deps.metrics,
        }),
        reviewWrites: createReviewWrites({
          config,
          location: location.slug,
          journal: deps.reviewJournal,
          upstreamHeaders,
        }),
      };
      built.set(location.slug, handlers);
      return handlers;
    },
    /** Lets every send in flight, on any location, finish. */
    async drain(): Promise<void> {
      await Promise.all([...built.values()].map((h) => h.send.drain()).concat(retired.map((s) => s.drain())));
    },
  };
}
export type HandlerSet = ReturnType<typeof createHandlerSet>;
