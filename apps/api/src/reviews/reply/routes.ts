import { AppError } from '@review-desk/server/errors';
import {
  IDEMPOTENCY_REPLAYED_HEADER,
  ok,
  REVIEW_ENDPOINTS,
  REVIEW_ID_PATTERN,
  replyBodySchema,
  statusBodySchema,
  withdrawQuerySchema,
} from '@review-desk/shared';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { jsonBody, methodNotAllowed, originRule, queryOf, requireScope } from '../../http/index.ts';
import { idempotencyKeyOf } from './intents.ts';
import type { Answered } from './replies.ts';

// One review and the changes a business makes to it (docs/api.md, "Answering reviews"): GET
// /api/v1/reviews/{id}; PATCH it (ignore, reopen); POST and DELETE its reply. A change needs the
// Origin rule (like any POST) and the reviews:reply scope; a reply and a withdrawal an
// Idempotency-Key. Every answer is the review as it now is.

/** The row id of a review's public id; a malformed id is a review that does not exist. */
function reviewIdOf(req: Request): number {
  const id = req.params.id as string;
  if (!REVIEW_ID_PATTERN.test(id)) throw new AppError('review_not_found');
  return Number(id.slice('rev_'.length));
}

function answer(res: Response, answered: Answered): void {
  if (answered.replayed) res.set(IDEMPOTENCY_REPLAYED_HEADER, 'true');
  res.json(ok(answered.review));
}

export function replyRoutes(ctx: AppContext): Router {
  const router = Router();
  const { one, status, reply, withdraw } = REVIEW_ENDPOINTS;
  const onePath = one.path;
  const replyPath = reply.path;

  router.get(onePath, requireScope(ctx, one.scope), async (req, res) => {
    const id = reviewIdOf(req);
    const parsed = z.strictObject({}).safeParse(queryOf(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    res.json(ok(await ctx.replies.detail(req.apiKey!.businessId, id)));
  });

  router.patch(onePath, originRule(ctx), requireScope(ctx, status.scope), ...jsonBody(), async (req, res) => {
    const id = reviewIdOf(req);
    const parsed = statusBodySchema.safeParse(req.body);
    if (!parsed.success) throw AppError.validation(parsed.error);
    answer(res, await ctx.replies.setStatus(req.apiKey!, id, parsed.data.status, parsed.data.version));
  });

  router.post(replyPath, originRule(ctx), requireScope(ctx, reply.scope), ...jsonBody(), async (req, res) => {
    const id = reviewIdOf(req);
    const key = idempotencyKeyOf(req);
    const parsed = replyBodySchema.safeParse(req.body);
    if (!parsed.success) throw AppError.validation(parsed.error);
    answer(res, await ctx.replies.reply(req.apiKey!, id, parsed.data, key));
  });

  router.delete(replyPath, originRule(ctx), requireScope(ctx, withdraw.scope), async (req, res) => {
    const id = reviewIdOf(req);
    const key = idempotencyKeyOf(req);
    const parsed = withdrawQuerySchema.safeParse(queryOf(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    answer(res, await ctx.replies.withdraw(req.apiKey!, id, parsed.data.version, key));
  });

  router.all(onePath, methodNotAllowed([one.method, status.method]));
  router.all(replyPath, methodNotAllowed([reply.method, withdraw.method]));
  return router;
}
