import type { Dialect } from '@review-desk/server/db/types';
import type { AppContext } from '../../context.ts';

// At start: replies a stopped process left being delivered. On SQLite this process is the only
// one, so every such reply was interrupted; on PostgreSQL another replica may still be waiting for
// its answer, so only those older than the longest call are. They become `unknown`, and are never
// delivered again by themselves.

/** No call a reply makes lasts longer than its carrier's or Google's timeout (SMTP: 30 s). */
export function replyStaleMs(config: AppContext['config']): number {
  return Math.max(config.google.timeoutMs, config.twilio?.timeoutMs ?? 0, 30_000) + 5_000;
}

export async function recoverReplies(ctx: AppContext, dialect: Dialect): Promise<number> {
  const now = ctx.now();
  const before = dialect === 'sqlite' ? now + 1 : now - replyStaleMs(ctx.config);
  const settled = await ctx.store.replies.settleStale(before, now);
  if (settled.length > 0)
    ctx.logger.warn({ replies: settled.length }, 'replies interrupted while being delivered marked unknown');
  return settled.length;
}
