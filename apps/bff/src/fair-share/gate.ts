import { AppError } from '@review-desk/server/errors';
import type { Gate } from '../http/gate.ts';
import type { ShareDecision } from './user-rate.ts';

/**
 * Gate (after the session, the role and the location, the last before a call goes upstream): the
 * user's fair share of the key's rate limit. Over it: 429 `user_rate_limited` with Retry-After,
 * and nothing is forwarded. `null`: no per-user limit (USER_RATE_LIMIT_PER_MINUTE=0).
 */
export function fairShare(share: { take(userId: string): Promise<ShareDecision> } | null): Gate {
  if (share === null) return () => null;
  return async (req) => {
    const decision = await share.take(req.ctx.session!.user.id);
    if (decision.allowed) return null;
    const seconds = decision.retryAfterSeconds;
    return new AppError(
      'user_rate_limited',
      `You are sending requests faster than your share of the service’s limit allows. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      { headers: { 'retry-after': String(seconds) } },
    );
  };
}
