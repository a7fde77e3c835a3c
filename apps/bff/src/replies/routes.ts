import type { Queryable } from '@review-desk/server/db/types';
import { AppError } from '@review-desk/server/errors';
import {
  BFF_REVIEW_ACTIONS_PATH,
  BFF_SAVED_REPLIES_PATH,
  ok,
  queryRecord,
  REVIEW_ID_PATTERN,
  savedRepliesBodySchema,
} from '@review-desk/shared';
import { Router } from 'express';
import { z } from 'zod';
import type { RouteGates } from '../gates.ts';
import { readJsonBody } from '../http/body.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { named } from '../http/named.ts';
import type { ReviewJournal } from './journal.ts';
import { createSavedReplies } from './saved.ts';

// The dashboard's own side of answering reviews (docs/bff.md, "Answering reviews"), at the
// location addressed: GET /bff/review-actions?review=<id>, who answered a review and how it went;
// GET/PUT /bff/saved-replies, the location's saved replies (owners write them).

const actionsQuerySchema = z.strictObject({
  review: z
    .string({ error: 'review must be given once' })
    .regex(REVIEW_ID_PATTERN, { error: 'review must be a review id (rev_<n>)' }),
});

export function replyRoutes(deps: { journal: ReviewJournal; db: Queryable; gates: RouteGates }) {
  const router = Router();
  const saved = createSavedReplies(deps.db);

  router.get(
    BFF_REVIEW_ACTIONS_PATH,
    named('reviewActions'),
    gateway(deps.gates.reviewActions),
    async (req, res) => {
      const q = req.url.indexOf('?');
      const parsed = actionsQuerySchema.safeParse(queryRecord(q === -1 ? '' : req.url.slice(q + 1)));
      if (!parsed.success) throw AppError.validation(parsed.error);
      res.json(ok({ actions: await deps.journal.list(req.ctx.location!.id, parsed.data.review) }));
    },
  );

  router.get(
    BFF_SAVED_REPLIES_PATH,
    named('savedReplies.read'),
    gateway(deps.gates['savedReplies.read']),
    async (req, res) => {
      res.json(ok(await saved.of(req.ctx.location!.id)));
    },
  );

  router.put(
    BFF_SAVED_REPLIES_PATH,
    named('savedReplies.write'),
    gateway(deps.gates['savedReplies.write']),
    async (req, res) => {
      const parsed = savedRepliesBodySchema.safeParse(await readJsonBody(req));
      if (!parsed.success) throw AppError.validation(parsed.error);
      const location = req.ctx.location!.id;
      await saved.replace(location, parsed.data.replies, req.ctx.session!.user.email);
      res.json(ok(await saved.of(location)));
    },
  );

  router.all(BFF_REVIEW_ACTIONS_PATH, methodNotAllowed('GET'));
  router.all(BFF_SAVED_REPLIES_PATH, methodNotAllowed('GET', 'PUT'));
  return router;
}
