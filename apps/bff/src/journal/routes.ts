import { AppError } from '@review-desk/server/errors';
import { BFF_PATHS, ok, queryRecord, type SendHistory, sendHistoryQuerySchema } from '@review-desk/shared';
import { Router } from 'express';
import type { RouteGates } from '../gates.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { type ContactHasher, normaliseContactFilter } from './contact.ts';
import type { Journal } from './journal.ts';

// GET /bff/sends: this dashboard's sends, newest first, paged like the reviews list; filtered by
// contact (normalised, then matched by keyed hash) so the send form can warn "a request went to
// this contact N days ago".

export function sendHistoryRoutes(deps: {
  journal: Journal;
  hasher: ContactHasher;
  gates: RouteGates;
  staleAfterMs: number;
}): Router {
  const router = Router();
  router.get(
    BFF_PATHS.sends,
    (req, _res, next) => {
      req.ctx.route = 'sends';
      next();
    },
    gateway(deps.gates.sends),
    async (req, res) => {
      const q = req.url.indexOf('?');
      const parsed = sendHistoryQuerySchema.safeParse(queryRecord(q === -1 ? '' : req.url.slice(q + 1)));
      if (!parsed.success) throw AppError.validation(parsed.error);
      const { page, limit, contact, country } = parsed.data;
      let filter: { phoneHash?: string; emailHashes?: string[] } = {};
      if (contact !== undefined) {
        const normalised = normaliseContactFilter(contact, country);
        if ('error' in normalised)
          throw new AppError('validation_failed', normalised.error, {
            fields: { contact: normalised.error },
          });
        filter =
          normalised.kind === 'phone'
            ? { phoneHash: deps.hasher.phone(normalised.value) }
            : { emailHashes: deps.hasher.emailLookups(normalised.value) };
      }
      await deps.journal.orphanStale(deps.staleAfterMs);
      const location = req.ctx.location!.id;
      const { total, sends } = await deps.journal.list({ location, page, limit, ...filter });
      const history: SendHistory = { page, limit, total, sends };
      res.json(ok(history));
    },
  );
  router.all(BFF_PATHS.sends, methodNotAllowed('GET'));
  return router;
}
