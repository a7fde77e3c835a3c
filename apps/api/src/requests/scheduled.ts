import { randomBytes } from 'node:crypto';
import type { Clock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';
import { createJobRunner, type JobHandler, type JobRunner } from '@review-desk/server/jobs/runner';
import type { NewJob } from '@review-desk/server/jobs/store';
import type { Logger } from '@review-desk/server/log';
import { type MessageTemplates, messagedContacts } from '@review-desk/shared';
import { composeMessages } from '../delivery/messages.ts';
import type { CarrierOutcome, DeliveryProvider, OutgoingMessage } from '../delivery/provider.ts';
import type { NewLeg } from '../delivery/store.ts';
import type { DeliveryTracker } from '../delivery/tracker.ts';
import type { Store } from '../store/index.ts';
import type { RequestRow } from './store.ts';

// Messages asked for outside the business's sending hours: the request is accepted and held
// (status `scheduled`, legs `scheduled`), and a job in the jobs table (packages/server) sends it
// when the window opens. The job is claimed under a lease, so of several processes on one database
// exactly one sends it; the held request survives a restart. A process that died after handing a
// message to the carrier leaves the request `sending`: the process that takes the job over records
// the message as `unknown` rather than send it twice.

export const SCHEDULED_SEND = 'delivery.scheduled-send';

export type ScheduledSendPayload = { requestId: string; businessId: number };

/** The job that sends a held request when its sending hours open (written with its reservation). */
export function scheduledSendJob(payload: ScheduledSendPayload, sendAt: number): NewJob {
  return {
    kind: SCHEDULED_SEND,
    uniqueKey: `send:${payload.requestId}`,
    payload,
    runAt: sendAt,
    maxAttempts: 3,
  };
}

/** A held request's legs as the delivery tables keep them until it goes. */
export function heldLegs(delivery: DeliveryProvider, messages: readonly OutgoingMessage[]): NewLeg[] {
  return messages.map((m) => ({
    channel: m.channel,
    provider: delivery.nameFor?.(m.channel) ?? delivery.name,
    to: m.to,
    sender: m.channel === 'sms' ? (delivery.sender?.() ?? null) : null,
    providerMessageId: null,
    state: 'scheduled',
    errorCode: null,
    error: null,
    segments: null,
  }));
}

export type ScheduledSendDeps = {
  store: Store;
  tracker: DeliveryTracker;
  logger: Logger;
  now: () => number;
  reviewLink: (token: string) => string;
  templatesFor: (businessId: number) => Promise<MessageTemplates | undefined>;
  /** Sends the messages of a held request and records the outcome (requests/send.ts). */
  deliver: (reserved: RequestRow, messages: OutgoingMessage[]) => Promise<void>;
  /** Records the legs of a request whose first attempt may have sent them (a crash mid-send). */
  giveUp: (reserved: RequestRow, messages: OutgoingMessage[], outcome: CarrierOutcome) => Promise<void>;
};

export function scheduledSendHandler(deps: ScheduledSendDeps): JobHandler {
  return async ({ job }) => {
    const { requestId, businessId } = job.payload as ScheduledSendPayload;
    const delivery = await deps.tracker.store();
    const record = await delivery.request(businessId, requestId);
    const reserved = await deps.store.requests.byPublicId(requestId);
    if (!record || !reserved || reserved.status !== 'sending') return;
    const business = await deps.store.businesses.byId(businessId);
    const templates = await deps.templatesFor(businessId);
    const messages = composeMessages({
      businessName: business?.name ?? '',
      customerName: reserved.customer_name,
      ...messagedContacts(reserved.channel, {
        phone: reserved.customer_phone,
        email: reserved.customer_email,
      }),
      reviewLink: deps.reviewLink(reserved.token),
      ...(templates ? { templates } : {}),
    });
    if (record.status === 'sending') {
      // A process took the job, began handing the messages over and stopped before recording
      // the outcome: they may have gone out. Never sent twice.
      deps.logger.warn(
        { requestId, job: job.id },
        'a held request was interrupted while being sent: unknown',
      );
      await deps.giveUp(reserved, messages, {
        status: 'unknown',
        error:
          'The service stopped while handing this message to the carrier: it may have been sent. It is not sent again automatically.',
      });
      return;
    }
    if (record.status !== 'scheduled') return;
    // Only the lease holder gets here; the status says "being sent" before anything leaves.
    if (!(await delivery.startSending(requestId, deps.now()))) return;
    await deps.deliver(reserved, messages);
  };
}

/**
 * The process's runner of scheduled work: held sends, and the other kinds given (the reminder).
 * Made with the app, started once the process has recovered what a stopped one left.
 */
export function createScheduler(options: {
  db: Database;
  clock: Clock;
  logger: Logger;
  handler: JobHandler;
  /** Other kinds of scheduled work run by the same runner (the reminder). */
  more?: Readonly<Record<string, JobHandler>>;
}): JobRunner {
  return createJobRunner({
    db: options.db,
    owner: `api-${process.pid}-${randomBytes(4).toString('hex')}`,
    handlers: { [SCHEDULED_SEND]: options.handler, ...options.more },
    clock: options.clock,
    concurrency: 4,
    pollMs: 1_000,
    leaseMs: 30_000,
    logger: options.logger,
  });
}
