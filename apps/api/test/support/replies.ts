import { randomUUID } from 'node:crypto';
import {
  REVIEW_ID_PATTERN,
  reviewDetailSchema,
  sendResultSchema,
  successEnvelopeSchema,
} from '@review-desk/shared';
import { submitFeedback } from '../../src/review-page/visits.ts';
import { type Body, getJson, type TestApi, writeJson } from '../helpers.ts';

// Answering reviews over HTTP, as a server-side caller does it: a review left through our own
// page (a request sent, the customer's rating stored by the page's own code), then the calls of
// docs/api.md "Answering reviews", each with its Idempotency-Key.

export type Answer = { status: number; headers: Headers; body: Body };

/** A request sent with `send`, and the review its customer left on the page: the review's id. */
export async function directReview(
  api: TestApi,
  key: string,
  send: Record<string, unknown>,
  review: { rating: number; comment?: string } = { rating: 2, comment: 'Cold coffee.' },
): Promise<{ id: string; requestId: string; token: string }> {
  const sent = await writeJson(api, 'POST', '/api/v1/requests/send', key, send);
  const { requestId } = successEnvelopeSchema(sendResultSchema).parse(sent.body).data;
  const request = (await api.ctx.store.requests.byPublicId(requestId))!;
  const stored = await submitFeedback(
    api.ctx.store,
    request.token,
    { rating: review.rating, comment: review.comment ?? '' },
    api.ctx.now(),
  );
  const id = `rev_${stored!.link.review!.id}`;
  if (!REVIEW_ID_PATTERN.test(id)) throw new Error(`unexpected review id ${id}`);
  return { id, requestId, token: request.token };
}

export function readReview(api: TestApi, key: string, id: string) {
  return getJson(api, `/api/v1/reviews/${id}`, key);
}

/** The review's detail from an answer (checked against the contract). */
export function detailOf(answer: { body: Body }) {
  return successEnvelopeSchema(reviewDetailSchema).parse(answer.body).data;
}

export function reply(
  api: TestApi,
  key: string,
  id: string,
  body: Record<string, unknown>,
  idempotencyKey: string | null = randomUUID(),
): Promise<Answer> {
  return writeJson(
    api,
    'POST',
    `/api/v1/reviews/${id}/reply`,
    key,
    body,
    idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey },
  );
}

export function withdraw(
  api: TestApi,
  key: string,
  id: string,
  version?: number,
  idempotencyKey: string = randomUUID(),
): Promise<Answer> {
  const query = version === undefined ? '' : `?version=${version}`;
  return writeJson(api, 'DELETE', `/api/v1/reviews/${id}/reply${query}`, key, undefined, {
    'idempotency-key': idempotencyKey,
  });
}

export function setStatus(
  api: TestApi,
  key: string,
  id: string,
  body: Record<string, unknown>,
): Promise<Answer> {
  return writeJson(api, 'PATCH', `/api/v1/reviews/${id}`, key, body);
}
