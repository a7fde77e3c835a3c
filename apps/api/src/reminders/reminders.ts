import type { Clock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';
import type { JobHandler } from '@review-desk/server/jobs/runner';
import { jobStore } from '@review-desk/server/jobs/store';
import type { Logger } from '@review-desk/server/log';
import { DAY_MS, messagedContacts, nextAllowedSendTime } from '@review-desk/shared';
import { composeMessages } from '../delivery/messages.ts';
import type { DeliveryProvider } from '../delivery/provider.ts';
import type { DeliveryTracker } from '../delivery/tracker.ts';
import { afterDelivery } from '../requests/after-delivery.ts';
import { deliverAll } from '../requests/deliver.ts';
import { legRecords } from '../requests/outcome.ts';
import type { RequestRow } from '../requests/store.ts';
import type { SettingsService } from '../settings/service.ts';
import type { Store } from '../store/index.ts';
import { monthOf } from '../store/time.ts';

// The one automatic reminder (docs/settings.md, "The reminder"). A request that messaged a
// customer gets a job in the jobs table, due `reminderAfterDays` after it was made. When due, the
// job (claimed under a lease: of several processes exactly one runs it) sends the same words once
// more — only if the customer has not opened the link, has not opted out and has not been sent
// another request since; never for a link. It waits for the sending hours, is part of the same
// request (no frequency cap, no new request), and uses one message of the monthly allowance
// (none left: skipped). Its state is written `sending` before anything leaves: a process that
// takes the job over after a crash records `unknown` and never sends it twice.

export const REMINDER_JOB = 'reminders.send';

type ReminderPayload = { requestId: string; businessId: number };

export type ReminderState = 'pending' | 'sending' | 'sent' | 'skipped' | 'unknown' | 'failed';

export type Reminders = ReturnType<typeof createReminders>;

export function createReminders(deps: {
  /** The service's database through the async layer: the jobs and reminders tables. */
  db: () => Promise<Database>;
  store: Store;
  settings: SettingsService;
  tracker: DeliveryTracker;
  delivery: DeliveryProvider;
  clock: Clock;
  logger: Logger;
  monthlySendAllowance: number;
  reviewLink: (token: string) => string;
}) {
  // The reminders table is the settings component's and the jobs table the scheduling one's,
  // both in the service's database, migrated when it opened (store/database.ts).
  const database = deps.db;
  const setState = async (requestId: string, state: ReminderState, reason: string | null, at?: number) => {
    const db = await database();
    await db.run(
      'UPDATE reminders SET state = $1, reason = $2, sent_at = COALESCE($3, sent_at) WHERE request_id = $4',
      state,
      reason,
      at ?? null,
      requestId,
    );
  };

  const contactsOf = (r: RequestRow) =>
    messagedContacts(r.channel, { phone: r.customer_phone, email: r.customer_email });

  /** Why a due reminder is not sent, or null to send it. */
  async function reasonNotToSend(r: RequestRow): Promise<string | null> {
    if (r.channel === 'link') return 'a link messages nobody';
    if (r.status !== 'sent') return `the request is ${r.status}`;
    if (r.clicked_at !== null) return 'the customer opened the link';
    if (r.opted_out_at !== null) return 'the customer opted out';
    const { phone, email } = contactsOf(r);
    // Through the page's link, or STOP texted to the business's number (requests/opt-outs.ts).
    if (
      await deps.store.optOuts.optedOut(r.business_id, {
        phone,
        email,
        sender: deps.delivery.sender?.() ?? null,
      })
    )
      return 'the customer opted out';
    const contact = { ...(phone ? { phone } : {}), ...(email ? { email } : {}) };
    if (await deps.store.requests.contactedSince(r.business_id, contact, r.created_at + 1))
      return 'the customer was sent another request since';
    return null;
  }

  return {
    /** After a send that messaged the customer: its reminder, due after the business's delay (its settings at the send). */
    async schedule(request: RequestRow, reminderAfterDays: number): Promise<boolean> {
      if (request.channel === 'link' || request.status === 'failed' || reminderAfterDays === 0) return false;
      const dueAt = request.created_at + reminderAfterDays * DAY_MS;
      const db = await database();
      const jobs = jobStore(db, deps.clock);
      const payload: ReminderPayload = { requestId: request.public_id, businessId: request.business_id };
      await db.transaction(async (tx) => {
        await tx.run(
          `INSERT INTO reminders (request_id, request_row, business_id, due_at, state, created_at)
           VALUES ($1, $2, $3, $4, 'pending', $5) ON CONFLICT (request_id) DO NOTHING`,
          request.public_id,
          request.id,
          request.business_id,
          dueAt,
          deps.clock.now(),
        );
        await jobs.enqueue({
          kind: REMINDER_JOB,
          uniqueKey: `reminder:${request.public_id}`,
          payload,
          runAt: dueAt,
        });
      });
      return true;
    },

    handler: (async ({ job }) => {
      const { requestId } = job.payload as ReminderPayload;
      const db = await database();
      const row = await db.get<{ state: ReminderState }>(
        'SELECT state FROM reminders WHERE request_id = $1',
        requestId,
      );
      if (!row || (row.state !== 'pending' && row.state !== 'sending')) return;
      if (row.state === 'sending') {
        // Another process began handing it to the carrier and stopped: it may have gone out.
        deps.logger.warn({ requestId, job: job.id }, 'a reminder was interrupted while being sent: unknown');
        await setState(requestId, 'unknown', 'The service stopped while sending it: it may have been sent.');
        return;
      }
      const request = await deps.store.requests.byPublicId(requestId);
      if (!request) return setState(requestId, 'skipped', 'the request no longer exists');
      const reason = await reasonNotToSend(request);
      if (reason) return setState(requestId, 'skipped', reason);
      const business = await deps.store.businesses.byId(request.business_id);
      if (business?.suspended_at != null) return setState(requestId, 'skipped', 'the business is suspended');
      const now = deps.clock.now();
      const hours = await deps.settings.quietHoursFor(request.business_id);
      const opens = nextAllowedSendTime(now, hours.window, hours.timeZone);
      if (opens > now) return { continueAt: opens };
      const month = monthOf(now);
      const allowance = deps.monthlySendAllowance;
      const counted =
        allowance === 0 || (await deps.store.allowance.take(request.business_id, month, allowance));
      if (!counted) return setState(requestId, 'skipped', 'the monthly sending allowance is used up');

      const messages = composeMessages({
        businessName: business?.name ?? '',
        customerName: request.customer_name,
        ...contactsOf(request),
        reviewLink: deps.reviewLink(request.token),
        templates: await deps.settings.templatesFor(request.business_id),
      });
      // Written before anything leaves: only the lease holder gets here.
      await setState(requestId, 'sending', null);
      const legs = await deliverAll({ delivery: deps.delivery, tracker: deps.tracker }, messages);
      const at = deps.clock.now();
      await deps.store.outbox.insertLegs(request.public_id, legs, at);
      // Its own legs in the request's delivery record, beside the send's (kind `reminder`).
      const carriers = { delivery: deps.delivery, tracker: deps.tracker };
      await (await deps.tracker.store()).recordReminderLegs(
        requestId,
        request.business_id,
        legRecords(deps.delivery, legs),
        at,
      );
      await afterDelivery(carriers, request.business_id, legs, at);
      const allFailed = legs.every((l) => l.outcome.status === 'failed');
      if (allFailed && allowance > 0) await deps.store.allowance.giveBack(request.business_id, month);
      await setState(requestId, allFailed ? 'failed' : 'sent', null, allFailed ? undefined : at);
    }) satisfies JobHandler,

    /** Reminders sent in the window, and of their requests those completed after the reminder. */
    async analytics(businessId: number, since: number): Promise<{ sent: number; completedAfter: number }> {
      const db = await database();
      const row = await db.get<{ sent: number; completed_after: number }>(
        `SELECT count(*) AS sent, count(*) FILTER (WHERE r.completed_at >= m.sent_at) AS completed_after
         FROM reminders m LEFT JOIN requests r ON r.id = m.request_row
         WHERE m.business_id = $1 AND m.state = 'sent' AND m.sent_at >= $2`,
        businessId,
        since,
      );
      return { sent: Number(row?.sent ?? 0), completedAfter: Number(row?.completed_after ?? 0) };
    },

    async stateOf(requestId: string): Promise<{ state: ReminderState; reason: string | null } | undefined> {
      const db = await database();
      return db.get('SELECT state, reason FROM reminders WHERE request_id = $1', requestId);
    },
  };
}
