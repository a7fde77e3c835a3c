import type { Clock } from '@review-desk/server/clock';
import type { Logger } from '@review-desk/server/log';
import type { HttpMetrics } from '@review-desk/server/metrics';
import type { AuthenticatedKey, KeyLookup, KeyUsage } from './accounts/keys.ts';
import type { DeliveryProvider } from './delivery/provider.ts';
import type { DeliveryTracker } from './delivery/tracker.ts';
import type { Config } from './env.ts';
import type { RateLimiter } from './rate/memory.ts';
import type { Reminders } from './reminders/reminders.ts';
import type { SendContext } from './requests/send.ts';
import type { SettingsService } from './settings/index.ts';
import type { Store } from './store/index.ts';

/** Everything a request handler may use, built once by server.ts. */
export type AppContext = {
  config: Config;
  store: Store;
  delivery: DeliveryProvider;
  /** The delivery tables (legs, receipts, STOP) through the async database layer. */
  tracker: DeliveryTracker;
  logger: Logger;
  metrics: HttpMetrics;
  rateLimiter: RateLimiter;
  keyUsage: KeyUsage;
  /** Each business's settings: its messages' words, sending window and reminder. */
  settings: SettingsService;
  /** The one automatic reminder per request: scheduled after a send, counted in analytics. */
  reminders: Reminders;
  now: () => number;
  /** The clock `now` reads (movable with DEV_CLOCK=1), which scheduled work waits on. */
  clock: Clock;
  /** Filled in once the server is bound (PUBLIC_ORIGIN defaults to the bound address). */
  site: { publicOrigin: string };
};

/** What a send needs from the service, plus what one call adds (the business's words and hours). */
export function sendContextOf(ctx: AppContext, extra: Partial<SendContext> = {}): SendContext {
  return {
    store: ctx.store,
    delivery: ctx.delivery,
    tracker: ctx.tracker,
    publicOrigin: ctx.site.publicOrigin,
    frequencyCapDays: ctx.config.frequencyCapDays,
    monthlySendAllowance: ctx.config.monthlySendAllowance,
    now: ctx.now,
    clock: ctx.clock,
    ...extra,
  };
}

declare global {
  namespace Express {
    interface Request {
      id: string;
      /** The key the caller presented, as looked up (set by the credentials step). */
      credentials?: { presented: boolean; lookup: KeyLookup | undefined };
      /** The authenticated key (set by requireScope). */
      apiKey?: AuthenticatedKey;
    }
  }
}
