import { expect } from 'vitest';
import { drainDevJobs, moveDevClock } from '../../../../test/support/dev-clock.ts';
import { requestReviewLink, submitReviewForm } from '../../../../test/support/review-page.ts';
import { type SystemApi, startSystemApi } from '../../../../test/support/stack.ts';

// What the alert suites share: the real API as the reviews' source, and customers leaving reviews
// on its customer page.

/** Email alerts from 2★ down, on UTC, no digest. */
export const EMAIL_ALERTS = { enabled: true, threshold: 2, channel: 'email', timeZone: 'UTC', digest: false };

/** The real API (its request limit out of the way of a poll every second) and a key for the BFF. */
export async function startReviewedApi(
  env: Record<string, string> = {},
): Promise<{ api: SystemApi; key: string }> {
  const api = await startSystemApi({ RATE_LIMIT_PER_MINUTE: '100000', ...env });
  return { api, key: await api.createKey() };
}

/** A customer leaves a review through the API's customer page: a review link asked for, then the form. */
export async function leaveReview(
  api: SystemApi,
  key: string,
  request: Record<string, unknown>,
  review: { rating: number; comment: string },
): Promise<void> {
  const { sent, token } = await requestReviewLink(api.url, key, request);
  expect(sent.status).toBe(200);
  const reply = await submitReviewForm(api.url, token, {
    rating: String(review.rating),
    comment: review.comment,
  });
  expect(reply.status).toBe(303);
}

/**
 * The BFF's next `n` polls, on its dev clock (BFF_DEV_HOOKS=1): each time the clock a poll interval
 * on and every due job run, so each step is one poll of each location, finished. The clock's time
 * after the last.
 */
export async function nextPolls(bff: { url: string }, n = 1, intervalMs = 1_000): Promise<number> {
  let now = 0;
  for (let i = 0; i < n; i++) {
    now = await moveDevClock(bff.url, { advanceMs: intervalMs });
    await drainDevJobs(bff.url);
  }
  return now;
}
