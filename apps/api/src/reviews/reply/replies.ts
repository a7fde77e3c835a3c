import type { Clock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';
import { AppError } from '@review-desk/server/errors';
import { jobStore } from '@review-desk/server/jobs/store';
import {
  REPLY_IN_FLIGHT,
  type ReplyBody,
  type ReviewAction,
  type ReviewDetail,
  type ReviewStatus,
  transitionAllowed,
} from '@review-desk/shared';
import type { AuthenticatedKey } from '../../accounts/keys.ts';
import { toReviewDetail } from '../detail.ts';
import type { GoogleService } from '../google/service.ts';
import { answerExisting, fingerprintOf } from './intents.ts';
import type { NewReply, ReplyRow, ReviewRecord } from './store.ts';
import { type CustomerDeps, deliverCustomerReply, planCustomerReply, REPLY_SEND_JOB } from './to-customer.ts';
import { callGoogle } from './to-google.ts';

// Answering reviews (docs/api.md, "Answering reviews"): read → (replay an intent already made)
// → decide where it goes → claim the review under its lock (its version, nothing under way) and
// record the intent → deliver → record the outcome → answer with the review as it now is.

export type RepliesDeps = CustomerDeps & {
  db: () => Promise<Database>;
  google: GoogleService;
  clock: Clock;
  /** An intent still `sending`/`posting` after this long cannot still be under way: `unknown`. */
  staleMs: number;
};

export type Answered = { review: ReviewDetail; replayed: boolean };

const rev = (id: number) => ({ namespace: 'review', key: String(id) });

export function createReplies(deps: RepliesDeps) {
  const { store } = deps;
  const replies = store.replies;

  async function record(businessId: number, id: number): Promise<ReviewRecord> {
    const found = await replies.review(businessId, id);
    if (!found) throw new AppError('review_not_found');
    return found;
  }

  /** The review as it now is (an attempt left under way too long is settled `unknown` first). */
  async function detail(businessId: number, id: number): Promise<ReviewDetail> {
    let found = await record(businessId, id);
    let latest = found.reply_id === null ? undefined : await replies.reply(found.reply_id);
    if (latest && REPLY_IN_FLIGHT.includes(latest.state) && latest.updated_at < deps.now() - deps.staleMs) {
      await replies.settleStale(deps.now() - deps.staleMs, deps.now());
      found = await record(businessId, id);
      latest = found.reply_id === null ? undefined : await replies.reply(found.reply_id);
    }
    return toReviewDetail(found, latest);
  }

  const changed = async (found: ReviewRecord) =>
    new AppError('review_changed', undefined, {
      extra: { current: await detail(found.business_id, found.id) },
    });

  /** The review's status moves, with its counters and roll-ups (inside a transaction). */
  async function move(before: ReviewRecord, status: ReviewStatus, write: () => Promise<unknown>) {
    if (status !== before.status) await store.reviews.account(before, -1);
    await write();
    if (status !== before.status) await store.reviews.account({ ...before, status }, 1);
  }

  /**
   * Under the review's lock: nothing under way, the caller's version, the transition; then the
   * intent and the review's claim. `alongside` writes what the intent changes at once.
   */
  async function claim(
    key: AuthenticatedKey,
    id: number,
    action: ReviewAction,
    version: number | undefined,
    intent: Omit<NewReply, 'business_id' | 'review_id' | 'created_at'>,
    alongside?: (found: ReviewRecord, made: ReplyRow) => Promise<void>,
  ): Promise<{ made: ReplyRow; found: ReviewRecord }> {
    return store.transaction(async (tx) => {
      await tx.lock(rev(id).namespace, rev(id).key);
      const found = await record(key.businessId, id);
      const latest = found.reply_id === null ? undefined : await replies.reply(found.reply_id);
      if (latest && REPLY_IN_FLIGHT.includes(latest.state)) throw new AppError('reply_in_flight');
      const overwrites = action === 'reply' && version === undefined && found.status === 'responded';
      if ((version !== undefined && version !== found.version) || overwrites) throw await changed(found);
      if (!transitionAllowed(action, found.status))
        throw new AppError(
          'transition_refused',
          action === 'withdraw'
            ? 'This review has no reply to withdraw.'
            : `A review that is ${found.status} cannot be ${action === 'ignore' ? 'ignored' : 'reopened'}: ${found.status === 'responded' ? 'withdraw its reply first' : 'it is not ignored'}.`,
        );
      const made = await replies.insert({
        ...intent,
        business_id: key.businessId,
        review_id: id,
        created_at: deps.now(),
      });
      if (!made) throw new AppError('idempotency_in_flight');
      await replies.claim(id, made.id);
      await alongside?.(found, made);
      return { made, found };
    });
  }

  /** An intent whose key was used before: the review as it now is, or the refusal. */
  async function replay(key: AuthenticatedKey, idemKey: string, fingerprint: string, id: number) {
    const existing = await replies.byKey(key.businessId, idemKey);
    if (!existing) return null;
    const answer = answerExisting(existing, fingerprint);
    if (answer !== 'replay') throw answer;
    if (existing.review_id !== id) throw new AppError('idempotency_mismatch');
    return { review: await detail(key.businessId, id), replayed: true };
  }

  async function destination(key: AuthenticatedKey, found: ReviewRecord) {
    if (found.platform === 'direct') return { to: 'customer' as const, connection: null };
    if (found.platform !== 'google' || found.external_id === null) throw new AppError('reply_not_offered');
    const connection = await deps.google.usable(key.businessId);
    if ('kind' in connection) throw new AppError('google_not_connected', connection.message);
    return { to: 'google' as const, connection };
  }

  /** After a Google call: the intent's outcome and, when Google took it, the review's. */
  async function settleGoogle(made: ReplyRow, outcome: Awaited<ReturnType<typeof callGoogle>>) {
    await store.transaction(async (tx) => {
      await tx.lock(rev(made.review_id).namespace, rev(made.review_id).key);
      const settled = await replies.settle(
        made.id,
        outcome.state,
        deps.now(),
        'error' in outcome ? outcome.error : null,
      );
      const found = await record(made.business_id, made.review_id);
      if (!settled || found.reply_id !== made.id) return;
      if (outcome.state === 'posted')
        await move(found, 'responded', () =>
          replies.respond(found.id, made.text ?? '', made.responded_by, outcome.at ?? deps.now()),
        );
      if (outcome.state === 'withdrawn') await move(found, 'pending', () => replies.unrespond(found.id));
    });
  }

  return {
    detail,

    async reply(key: AuthenticatedKey, id: number, body: ReplyBody, idemKey: string): Promise<Answered> {
      const fingerprint = fingerprintOf('reply', id, body);
      const replayed = await replay(key, idemKey, fingerprint, id);
      if (replayed) return replayed;
      const found = await record(key.businessId, id);
      const where = await destination(key, found);
      const plan =
        where.to === 'customer' ? await planCustomerReply(deps, found, body.text, key.business.name) : null;
      const { made } = await claim(
        key,
        id,
        'reply',
        body.version,
        {
          idem_key: idemKey,
          fingerprint,
          action: 'reply',
          destination: where.to,
          channel: plan?.channel ?? null,
          text: body.text,
          responded_by: body.respondedBy ?? null,
          state: plan?.state ?? 'posting',
        },
        async (current, made) => {
          if (!plan) return;
          // A reply to our own page's review is the business's answer once saved; its delivery is reported apart.
          await move(current, 'responded', () =>
            replies.respond(id, body.text, body.respondedBy ?? null, deps.now()),
          );
          if (plan.state !== 'scheduled' || plan.sendAt === null) return;
          await replies.setState(made.id, 'scheduled', deps.now(), { scheduledFor: plan.sendAt });
          await jobStore(await deps.db(), deps.clock).enqueue({
            kind: REPLY_SEND_JOB,
            uniqueKey: `reply:${made.id}`,
            payload: { replyId: made.id, businessId: key.businessId },
            runAt: plan.sendAt,
          });
        },
      );
      if (where.connection)
        await settleGoogle(made, await callGoogle(deps.google, where.connection, made, found));
      else if (plan?.state === 'sending') await deliverCustomerReply(deps, made, found);
      return { review: await detail(key.businessId, id), replayed: false };
    },

    async withdraw(key: AuthenticatedKey, id: number, version: number | undefined, idemKey: string) {
      const fingerprint = fingerprintOf('withdraw', id, { version });
      const replayed = await replay(key, idemKey, fingerprint, id);
      if (replayed) return replayed;
      const found = await record(key.businessId, id);
      const where =
        found.status === 'responded'
          ? await destination(key, found)
          : { to: 'customer' as const, connection: null };
      const { made } = await claim(
        key,
        id,
        'withdraw',
        version,
        {
          idem_key: idemKey,
          fingerprint,
          action: 'withdraw',
          destination: where.to,
          channel: null,
          text: null,
          responded_by: null,
          state: where.to === 'google' ? 'posting' : 'withdrawn',
        },
        // Private replies are withdrawn here at once (a message already sent cannot be taken back).
        where.to === 'customer'
          ? (current) => move(current, 'pending', () => replies.unrespond(id))
          : undefined,
      );
      if (where.connection)
        await settleGoogle(made, await callGoogle(deps.google, where.connection, made, found));
      return { review: await detail(key.businessId, id), replayed: false };
    },

    /** PATCH: ignore or reopen; asking for the status it has changes nothing (200). */
    async setStatus(key: AuthenticatedKey, id: number, status: 'ignored' | 'pending', version?: number) {
      const action: ReviewAction = status === 'ignored' ? 'ignore' : 'reopen';
      await store.transaction(async (tx) => {
        await tx.lock(rev(id).namespace, rev(id).key);
        const found = await record(key.businessId, id);
        if (version !== undefined && version !== found.version) throw await changed(found);
        if (found.status === status) return;
        if (!transitionAllowed(action, found.status))
          throw new AppError(
            'transition_refused',
            found.status === 'responded'
              ? 'This review has a reply: withdraw the reply to reopen it, or leave it answered.'
              : undefined,
          );
        await move(found, status, () => replies.setStatus(id, status));
      });
      return { review: await detail(key.businessId, id), replayed: false };
    },
  };
}
export type Replies = ReturnType<typeof createReplies>;
