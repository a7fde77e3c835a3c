import { expect } from 'vitest';
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
