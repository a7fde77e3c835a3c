import type { UserStore } from '../auth/users.ts';
import type { LocationDirectory } from '../locations/directory.ts';
import type { HandlerSet } from '../locations/handlers.ts';
import type { BulkJobRecord } from './store.ts';
import type { Sender } from './worker.ts';

// A list is sent with its location's send path (its key, its upstream, the same journal), as
// long as the user who started it still exists and still reaches that location.

export function locationSender(deps: {
  users: UserStore;
  directory: LocationDirectory;
  handlers: HandlerSet;
}) {
  return async (job: BulkJobRecord): Promise<Sender | { reason: string }> => {
    if ((await deps.users.get(job.createdBy)) === null)
      return { reason: `${job.createdByEmail}, who started this list send, is no longer a user.` };
    const mine = await deps.directory.forUser(job.createdBy);
    const location = mine.find((l) => l.id === job.location);
    if (!location) {
      const named = await deps.directory.byId(job.location);
      return {
        reason: named
          ? `${job.createdByEmail} no longer has access to the location ${named.name}.`
          : 'The location of this list send is no longer served.',
      };
    }
    return deps.handlers.forLocation(location).send;
  };
}
