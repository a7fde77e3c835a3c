import type { Clock } from '@review-desk/server/clock';
import type { JobRunner } from '@review-desk/server/jobs/runner';
import type { Logger } from '@review-desk/server/log';
import type { HttpMetrics } from '@review-desk/server/metrics';
import type { SecretBox } from '@review-desk/server/secrets';
import type { AuthenticatedKey, KeyLookup, KeyUsage } from './accounts/keys.ts';
import type { DeliveryProvider } from './delivery/provider.ts';
import type { DeliveryTracker } from './delivery/tracker.ts';
import type { Config } from './env.ts';
import type { Square } from './integrations/square/service.ts';
import type { RateLimiter } from './rate/limiter.ts';
import type { Reminders } from './reminders/reminders.ts';
import type { HeldContext } from './requests/held.ts';
import type { SendContext } from './requests/send.ts';
import type { SendStore } from './requests/send-store.ts';
import type { GoogleService } from './reviews/google/service.ts';
import type { GoogleSync } from './reviews/google/sync.ts';
import type { Replies } from './reviews/reply/replies.ts';
import type { SettingsService } from './settings/index.ts';
import type { Store } from './store/index.ts';
import type { Dispatcher } from './webhooks/dispatcher.ts';
import type { Webhooks } from './webhooks/service.ts';
import type { Widgets } from './widget/service.ts';

/** Everything a request handler may use, built once by server.ts. */
export type AppContext = {
  config: Config;
  store: Store;
  /** The send's writes across its tables (requests/send-store.ts). */
  sends: SendStore;
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
  /** Answering reviews: the reply to the customer or on Google, the status changes. */
  replies: Replies;
  /** Each business's Google Business Profile connection, and the job that syncs its reviews. */
  google: GoogleService;
  googleSync: GoogleSync;
  /** This process's runner of scheduled work (held sends, reminders, replies, Google syncs); `drain()` runs what is due. */
  jobs: JobRunner;
  /** The business's webhook endpoints and their logs (webhooks/service.ts). */
  webhooks: Webhooks;
  /** Seals what the service keeps for others: webhook secrets, point-of-sale keys. */
  box: SecretBox;
  /** Square, the first point of sale: its connections and notifications. */
  square: Square;
  /** This process's delivery of the webhooks' outbox, once started (startApi). */
  dispatcher: { current?: Dispatcher };
  now: () => number;
  /** The clock `now` reads (movable with DEV_CLOCK=1), which scheduled work waits on. */
  clock: Clock;
  /** The website widgets as visitors get them: from memory, dropped on every change. */
  widgets: Widgets;
  /** Filled in once the server is bound (PUBLIC_ORIGIN defaults to the bound address). */
  site: { publicOrigin: string };
};

/** What a send (and a held send) needs from the service. */
export function sendContextOf(ctx: AppContext): SendContext & HeldContext {
  return {
    store: ctx.store,
    sends: ctx.sends,
    delivery: ctx.delivery,
    tracker: ctx.tracker,
    settings: ctx.settings,
    reminders: ctx.reminders,
    logger: ctx.logger,
    publicOrigin: ctx.site.publicOrigin,
    frequencyCapDays: ctx.config.frequencyCapDays,
    monthlySendAllowance: ctx.config.monthlySendAllowance,
    now: ctx.now,
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
