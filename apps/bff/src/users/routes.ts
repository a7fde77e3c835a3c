import { AppError } from '@review-desk/server/errors';
import { BFF_PATHS, createUserSchema, ok, updateUserSchema } from '@review-desk/shared';
import { type RequestHandler, Router } from 'express';
import type { Logger } from 'pino';
import type { SessionStore } from '../auth/sessions.ts';
import type { UserStore } from '../auth/users.ts';
import type { RouteGates } from '../gates.ts';
import { readJsonBody } from '../http/body.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';

// Owner-only user management (permission users:manage): list, create, change role or password,
// remove. The last owner can be neither demoted nor removed (409).

export function userRoutes(deps: {
  users: UserStore;
  sessions: SessionStore;
  gates: RouteGates;
  logger: Logger;
  /** What else goes with a removed user (their locations). */
  onRemoved?: (id: string) => Promise<void>;
}): Router {
  const { users, sessions, logger } = deps;
  const router = Router();
  const base = BFF_PATHS.users;
  const item = `${base}/:id`;
  const guard: RequestHandler = (req, _res, next) => {
    req.ctx.route = 'users';
    next();
  };
  const read = gateway(deps.gates['users.read']);
  const write = gateway(deps.gates['users.write']);
  const remove = gateway(deps.gates['users.remove']);

  router.get(base, guard, read, async (_req, res) => {
    res.json(ok({ users: await users.list() }));
  });

  router.post(base, guard, write, async (req, res) => {
    const parsed = createUserSchema.safeParse(await readJsonBody(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const user = await users.create(parsed.data);
    logger.info(
      { reqId: req.ctx.id, by: req.ctx.session!.user.id, user: user.id, role: user.role },
      'user created',
    );
    res.status(201).json(ok({ user }));
  });

  router.patch(item, guard, write, async (req, res) => {
    const parsed = updateUserSchema.safeParse(await readJsonBody(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const id = String(req.params.id);
    const user = await users.update(id, parsed.data);
    // A new password ends the user's other sessions (keeping the caller's own, if it is theirs).
    if (parsed.data.password !== undefined) await sessions.destroyOthers(id, req.ctx.token);
    else await sessions.userChanged(id);
    logger.info(
      {
        reqId: req.ctx.id,
        by: req.ctx.session!.user.id,
        user: id,
        role: parsed.data.role,
        passwordChanged: parsed.data.password !== undefined,
      },
      'user updated',
    );
    res.json(ok({ user }));
  });

  router.delete(item, guard, remove, async (req, res) => {
    const user = await users.remove(String(req.params.id));
    await sessions.userChanged(user.id);
    await deps.onRemoved?.(user.id);
    logger.info({ reqId: req.ctx.id, by: req.ctx.session!.user.id, user: user.id }, 'user removed');
    res.json(ok({ user }));
  });

  router.all(base, methodNotAllowed('GET', 'POST'));
  router.all(item, methodNotAllowed('PATCH', 'DELETE'));
  return router;
}
