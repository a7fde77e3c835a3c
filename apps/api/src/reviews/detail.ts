import { isoTime } from '@review-desk/server/db/rows';
import { type Channel, type ReplyOutcome, type ReviewDetail, reviewDetailSchema } from '@review-desk/shared';
import type { ReplyRow, ReviewRecord } from './reply/store.ts';
import { toReview } from './view.ts';

// One review as GET /api/v1/reviews/{id} and every change answer it (docs/api.md, "Answering
// reviews"): the list's fields, who answered and when, its version, where it came from, and how
// far its latest reply got.

export function toReplyOutcome(reply: ReplyRow): ReplyOutcome {
  return {
    action: reply.action,
    to: reply.destination,
    state: reply.state,
    channel: reply.channel === 'link' ? null : reply.channel,
    text: reply.text,
    by: reply.responded_by,
    error: reply.error,
    scheduledFor: isoTime(reply.scheduled_for),
    at: isoTime(reply.updated_at),
  };
}

export function toReviewDetail(record: ReviewRecord, reply: ReplyRow | undefined): ReviewDetail {
  const detail: ReviewDetail = {
    ...toReview(record),
    responded_at: isoTime(record.responded_at),
    responded_by: record.responded_by,
    version: record.version,
    source: {
      platform: record.platform,
      requestId: record.request_public_id,
      channel: record.request_channel as Channel | null,
    },
    reply: reply ? toReplyOutcome(reply) : null,
  };
  // What leaves the service is what the contract says (a development check, cheap enough).
  return reviewDetailSchema.parse(detail);
}
