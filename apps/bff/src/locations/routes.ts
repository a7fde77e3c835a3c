import { AppError } from '@review-desk/server/errors';
import { BFF_PATHS, locationAccessSchema, ok, type Role } from '@review-desk/shared';
import { Router } from 'express';
import type { Logger } from 'pino';
import type { RouteGates } from '../gates.ts';
import { readJsonBody } from '../http/body.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { named } from '../http/named.ts';
import type { LocationDirectory } from './directory.ts';
import type { LocationStore } from './store.ts';

// GET /bff/locations: the signed-in user's locations (slug and name only — never an upstream, a
// key or an Origin), the first being what an unprefixed call addresses. And, for owners, each
// user's reach: GET/PUT /bff/users/:id/locations ({all:true} or {all:false, slugs}); an owner's is
// always every location.

export function locationRoutes(deps: {
  directory: LocationDirectory;
  store: () => Promise<LocationStore>;
  /** The user's role, or null when there is no such user. */
  userRole: (id: string) => Promise<Role | null>;
  gates: RouteGates;
  logger: Logger;
}): Router {
  const { directory } = deps;
  const router = Router();
  const access = `${BFF_PATHS.users}/:id/locations`;

  router.get(BFF_PATHS.locations, named('locations'), gateway(deps.gates.locations), async (req, res) => {
    const mine = await directory.forUser(req.ctx.session!.user.id);
    res.json(ok({ locations: mine.map((l) => ({ slug: l.slug, name: l.name })) }));
  });

  const known = async (id: string): Promise<Role> => {
    const role = await deps.userRole(id);
    if (role === null) throw new AppError('user_not_found');
    return role;
  };

  router.get(access, named('users'), gateway(deps.gates['users.read']), async (req, res) => {
    const id = String(req.params.id);
    await known(id);
    const store = await deps.store();
    res.json(ok({ access: await store.accessOf(id), locations: await listed(directory) }));
  });

  router.put(access, named('users'), gateway(deps.gates['users.write']), async (req, res) => {
    const id = String(req.params.id);
    const parsed = locationAccessSchema.safeParse(await readJsonBody(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    // Owners have every location (decision 0026); the reach of others is chosen here.
    if ((await known(id)) === 'owner' && !parsed.data.all) throw new AppError('owner_every_location');
    const store = await deps.store();
    await store.setAccess(id, parsed.data);
    directory.forget(id);
    deps.logger.info(
      {
        reqId: req.ctx.id,
        by: req.ctx.session!.user.id,
        user: id,
        locations: parsed.data.all ? 'all' : parsed.data.slugs,
      },
      'user locations changed',
    );
    res.json(ok({ access: await store.accessOf(id) }));
  });

  router.all(BFF_PATHS.locations, methodNotAllowed('GET'));
  router.all(access, methodNotAllowed('GET', 'PUT'));
  return router;
}

async function listed(directory: LocationDirectory) {
  return (await directory.all()).map((l) => ({ slug: l.slug, name: l.name }));
}
