import { AppError } from '@review-desk/server/errors';
import type { JobHandler } from '@review-desk/server/jobs/runner';
import { type Channel, nextAllowedSendTime } from '@review-desk/shared';
import type { OutgoingMessage } from '../../delivery/provider.ts';
import { afterDelivery } from '../../requests/after-delivery.ts';
import { type Carriers, deliverAll } from '../../requests/deliver.ts';
import { legRecords } from '../../requests/outcome.ts';
import type { RequestRow } from '../../requests/store.ts';
import type { SettingsService } from '../../settings/service.ts';
import type { Store } from '../../store/index.ts';
import { replyMessages, smsReplyMax } from './customer-message.ts';
import { INTERRUPTED, type ReplyRow, type ReviewRecord } from './store.ts';

// A reply to a review left through our own customer page goes to the customer, privately, by the
// channel their request used, through the same delivery as requests: the business's sending hours
// (held until they open, by a job in the jobs table), opt-outs (a customer who opted out is not
// messaged: the reply is saved and the answer says so), the carriers' receipts (its legs are the
// request's, kind `reply`). A reply uses no sending allowance and is not a request (no frequency
// cap). Its state is written `sending` before anything leaves, so a process that stops mid-send
// leaves it `unknown`, never sent twice.

export const REPLY_SEND_JOB = 'reviews.reply-send';

/** What a reply to the customer does when it is asked for. */
export type CustomerPlan = {
  state: 'sending' | 'scheduled' | 'opted_out' | 'no_contact';
  /** The channel that reaches the customer (a `both` request with one contact opted out: the other). */
  channel: Channel | null;
  sendAt: number | null;
};

export type CustomerDeps = Carriers & {
  store: Store;
  settings: SettingsService;
  now: () => number;
  reviewLink: (token: string) => string;
};

function contacts(request: RequestRow) {
  return {
    phone: request.channel === 'sms' || request.channel === 'both' ? request.customer_phone : null,
    email: request.channel === 'email' || request.channel === 'both' ? request.customer_email : null,
  };
}

/** The contacts still allowed to hear from the business (opt-outs on our page, and STOP texts). */
async function reachable(deps: CustomerDeps, request: RequestRow) {
  const { phone, email } = contacts(request);
  const sender = deps.delivery.sender?.() ?? null;
  const optOuts = deps.store.optOuts;
  const phoneOk =
    phone !== null && !(await optOuts.optedOut(request.business_id, { phone, email: null, sender }));
  const emailOk =
    email !== null && !(await optOuts.optedOut(request.business_id, { phone: null, email, sender: null }));
  return {
    phone: phoneOk ? phone : null,
    email: emailOk ? email : null,
    any: phone !== null || email !== null,
  };
}

const channelOf = (phone: string | null, email: string | null): Channel | null =>
  phone && email ? 'both' : phone ? 'sms' : email ? 'email' : null;

/** What happens to this reply now; a text too long for an SMS to this customer is refused (400). */
export async function planCustomerReply(
  deps: CustomerDeps,
  record: ReviewRecord,
  text: string,
  businessName: string,
): Promise<CustomerPlan> {
  const request = record.request_id === null ? undefined : await deps.store.requests.byId(record.request_id);
  if (!request || request.channel === 'link') return { state: 'no_contact', channel: null, sendAt: null };
  const { phone, email, any } = await reachable(deps, request);
  if (!any) return { state: 'no_contact', channel: null, sendAt: null };
  const channel = channelOf(phone, email);
  if (channel === null) return { state: 'opted_out', channel: request.channel, sendAt: null };
  if (phone) {
    const max = smsReplyMax(businessName);
    if (text.length > max) {
      const message = `text must be at most ${max} characters: this customer is answered by text message`;
      throw new AppError('validation_failed', message, { fields: { text: message } });
    }
  }
  const now = deps.now();
  const hours = await deps.settings.quietHoursFor(record.business_id);
  const opens = nextAllowedSendTime(now, hours.window, hours.timeZone);
  return opens > now
    ? { state: 'scheduled', channel, sendAt: opens }
    : { state: 'sending', channel, sendAt: null };
}

/** Hands the reply to the carriers (the intent is `sending`) and records how it went. */
export async function deliverCustomerReply(deps: CustomerDeps, intent: ReplyRow, record: ReviewRecord) {
  const request = await deps.store.requests.byId(record.request_id as number);
  const business = await deps.store.businesses.byId(record.business_id);
  if (!request || !business)
    return deps.store.replies.settle(intent.id, 'failed', deps.now(), 'The request is gone.');
  const { phone, email } = await reachable(deps, request);
  if (!phone && !email) return deps.store.replies.settle(intent.id, 'opted_out', deps.now());
  const messages: OutgoingMessage[] = replyMessages({
    businessName: business.name,
    phone,
    email,
    text: intent.text ?? '',
    reviewLink: deps.reviewLink(request.token),
  });
  const legs = await deliverAll(deps, messages);
  const at = deps.now();
  await deps.store.outbox.insertLegs(request.public_id, legs, at, 'reply');
  const delivery = await deps.tracker.store();
  // Requests from before the delivery records have no record to hang the legs on (no receipts).
  if (await delivery.request(request.business_id, request.public_id))
    await delivery.recordReplyLegs(
      request.public_id,
      request.business_id,
      legRecords(deps.delivery, legs),
      at,
    );
  await afterDelivery(deps, request.business_id, legs, at);
  const failed = legs.filter((l) => l.outcome.status === 'failed');
  if (legs.some((l) => l.outcome.status === 'accepted'))
    return deps.store.replies.settle(intent.id, 'sent', at);
  if (failed.length === legs.length)
    return deps.store.replies.settle(
      intent.id,
      'failed',
      at,
      failed.map((l) => (l.outcome.status === 'failed' ? l.outcome.error : '')).join(' '),
    );
  return deps.store.replies.settle(intent.id, 'unknown', at, INTERRUPTED);
}

/** A held reply, when the business's sending hours open (claimed under a lease: one process sends it). */
export function replySendHandler(deps: CustomerDeps): JobHandler {
  return async ({ job }) => {
    const { replyId, businessId } = job.payload as { replyId: number; businessId: number };
    const intent = await deps.store.replies.reply(replyId);
    if (!intent) return;
    if (intent.state === 'sending') {
      // A process began handing it over and stopped: it may have gone out.
      await deps.store.replies.settle(intent.id, 'unknown', deps.now(), INTERRUPTED);
      return;
    }
    if (intent.state !== 'scheduled') return;
    const record = await deps.store.replies.review(businessId, intent.review_id);
    if (!record || record.reply_id !== intent.id) {
      await deps.store.replies.setState(intent.id, 'failed', deps.now(), {
        error: 'Replaced or withdrawn before sending hours opened: not sent.',
      });
      return;
    }
    const hours = await deps.settings.quietHoursFor(businessId);
    const opens = nextAllowedSendTime(deps.now(), hours.window, hours.timeZone);
    if (opens > deps.now()) return { continueAt: opens };
    // Written before anything leaves: only the lease holder gets here.
    await deps.store.replies.setState(intent.id, 'sending', deps.now());
    await deliverCustomerReply(deps, { ...intent, state: 'sending' }, record);
  };
}
