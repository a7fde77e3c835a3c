import { fail, ok } from '@review-desk/shared';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { methodNotAllowed } from '../http/index.ts';

// Liveness and readiness for process managers and the BFF's checks (no key needed, no data shown).
export function healthRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json(ok({ status: 'ok' }));
  });
  router.get('/readyz', (_req, res) => {
    try {
      ctx.store.db.prepare('SELECT 1').get();
      res.json(ok({ status: 'ready' }));
    } catch {
      res.status(503).json(fail('not_ready', 'Not ready: database unavailable.'));
    }
  });
  // Without these, Express answers OPTIONS itself with a plain-text body, not the envelope.
  router.all('/healthz', methodNotAllowed(['GET']));
  router.all('/readyz', methodNotAllowed(['GET']));
  return router;
}
