import { StartupError } from '@review-desk/server/startup-error';
import type { LocationAccess } from '@review-desk/shared';
import type { Logger } from 'pino';
import type { Config, Upstream } from '../env.ts';
import { IMPLICIT_LOCATION_ID } from './records/records.ts';
import type { Location, LocationStore } from './store.ts';

// Where each location's calls go, and which locations a user may address. The table is read
// from the store and kept for `reloadMs` (a key rotated or a location added with the CLI is in use
// within that time, in every process); a user's reach likewise, in a map bounded by
// MAX_CACHED_USERS. With no location stored, the configured UPSTREAM_URL and key are the one
// implicit location, and every user has it: the BFF behaves as it did before locations existed.
// Without UPSTREAM_URL the stored locations are the only ones; `ready()` refuses a start with none.

export type { Upstream } from '../env.ts';

export type RoutedLocation = {
  /** The location's id (the implicit location's: ''): what its journal, lists and alerts are bound to. */
  id: string;
  slug: string;
  name: string;
  upstream: Upstream;
  /** Changes when the location's upstream or key changes: handlers built for an older one are replaced. */
  version: number;
};

/** The slug of the location UPSTREAM_URL and UPSTREAM_API_KEY imply while none is stored. */
export const IMPLICIT_SLUG = 'main';
export const MAX_CACHED_USERS = 10_000;

type Table = {
  at: number;
  list: RoutedLocation[];
  bySlug: Map<string, RoutedLocation>;
  implicit: boolean;
  /** Why a stored location cannot be served (no upstream, or a real one beside the dev hooks). */
  unserved: string[];
};

export type LocationDirectory = ReturnType<typeof createLocationDirectory>;

export function createLocationDirectory(deps: {
  config: Pick<Config, 'upstream' | 'upstreamTimeoutMs' | 'businessName'>;
  store: () => Promise<LocationStore>;
  /**
   * With the dev hooks on: whether an upstream is a development service (dev-upstream.ts). A
   * location whose upstream is not is never served: anyone could move the clock its list sends,
   * alerts and digests wait on.
   */
  developmentUpstream?: (url: URL) => Promise<boolean>;
  reloadMs?: number;
  now?: () => number;
  /** Where a reload that failed is said (the last good table is kept), once per different reason. */
  logger?: Pick<Logger, 'warn'>;
}) {
  const { config } = deps;
  const reloadMs = deps.reloadMs ?? 2_000;
  const now = deps.now ?? Date.now;
  const implicit: RoutedLocation | null = config.upstream && {
    id: IMPLICIT_LOCATION_ID,
    slug: IMPLICIT_SLUG,
    name: config.businessName ?? 'Main location',
    upstream: config.upstream,
    version: 0,
  };
  let table: Table | null = null;
  let loading: Promise<Table> | null = null;
  let lastFailure: string | null = null;
  const reach = new Map<string, { at: number; access: LocationAccess }>();

  /** A stored location's upstream, or why it has none. */
  function upstreamOf(l: Location & { key: string }): Upstream | string {
    if (l.upstreamUrl === null && config.upstream === null)
      return `${l.slug} has no upstream of its own and UPSTREAM_URL is not set`;
    const url = l.upstreamUrl === null ? (config.upstream as Upstream).url : new URL(l.upstreamUrl);
    return {
      url,
      key: l.key,
      authScheme: l.authScheme,
      // Without its own Origin a location on the configured upstream keeps UPSTREAM_ORIGIN.
      origin: l.origin ?? (l.upstreamUrl === null ? (config.upstream as Upstream).origin : url.origin),
      timeoutMs: config.upstreamTimeoutMs,
    };
  }

  async function load(): Promise<Table> {
    const store = await deps.store();
    const list: RoutedLocation[] = [];
    const unserved: string[] = [];
    const stored = await store.credentials();
    for (const l of stored) {
      const upstream = upstreamOf(l);
      if (typeof upstream === 'string') unserved.push(upstream);
      else list.push({ id: l.id, slug: l.slug, name: l.name, version: l.updatedAt, upstream });
    }
    const empty = stored.length === 0;
    const routed = empty && implicit ? [implicit] : list;
    const served: RoutedLocation[] = [];
    for (const location of routed) {
      if (deps.developmentUpstream && !(await deps.developmentUpstream(location.upstream.url)))
        unserved.push(
          `${location.slug}'s upstream ${location.upstream.url.origin} is not a development service (its dev clock and dev outbox do not answer), and BFF_DEV_HOOKS=1 lets anyone move the clock`,
        );
      else served.push(location);
    }
    return {
      at: now(),
      list: served,
      bySlug: new Map(served.map((l) => [l.slug, l])),
      implicit: empty && implicit !== null,
      unserved,
    };
  }

  /** The table, from the cache while fresh (synchronously), else reloaded once for all callers. */
  function current(): Table | Promise<Table> {
    if (table && now() - table.at < reloadMs) return table;
    loading ??= load().then(
      (loaded) => {
        table = loaded;
        loading = null;
        lastFailure = null;
        return loaded;
      },
      (error) => {
        loading = null;
        const reason = error instanceof Error ? error.message : String(error);
        if (reason !== lastFailure)
          deps.logger?.warn(
            { err: reason },
            'locations: the table could not be read again; the locations read before stay in use',
          );
        lastFailure = reason;
        throw error;
      },
    );
    // A stale table still answers while the reload runs (a failed reload keeps it); only the
    // first load is waited for.
    if (table) {
      loading.catch(() => {});
      return table;
    }
    return loading;
  }

  function accessOf(userId: string): LocationAccess | Promise<LocationAccess> {
    const cached = reach.get(userId);
    if (cached && now() - cached.at < reloadMs) return cached.access;
    return deps.store().then(async (store) => {
      const access = await store.accessOf(userId);
      if (reach.size >= MAX_CACHED_USERS) reach.delete(reach.keys().next().value as string);
      reach.delete(userId);
      reach.set(userId, { at: now(), access });
      return access;
    });
  }

  function pick(t: Table, access: LocationAccess): RoutedLocation[] {
    if (t.implicit || access.all) return t.list;
    const allowed = new Set(access.slugs);
    return t.list.filter((l) => allowed.has(l.slug));
  }

  return {
    /**
     * Reads the table once before serving; refuses to start (one line) when a stored location
     * cannot be served, or when there is no location at all (nothing stored, no UPSTREAM_URL).
     */
    async ready(): Promise<void> {
      const loaded = await load();
      table = loaded;
      if (loaded.unserved.length > 0)
        throw new StartupError(`A location cannot be served: ${loaded.unserved.join('; ')}.`, {
          variable: loaded.unserved.some((u) => u.includes('BFF_DEV_HOOKS'))
            ? 'BFF_DEV_HOOKS'
            : 'UPSTREAM_URL',
        });
      if (loaded.list.length === 0)
        throw new StartupError(
          'Invalid configuration: UPSTREAM_URL is required while no location is stored (or add one: npm run cli -w apps/bff -- location add).',
          { variable: 'UPSTREAM_URL' },
        );
    },
    /** Every location, in order. */
    all(): RoutedLocation[] | Promise<RoutedLocation[]> {
      const t = current();
      return t instanceof Promise ? t.then((x) => x.list) : t.list;
    },
    /** The user's locations in order (the first is what an unprefixed call addresses). */
    forUser(userId: string): RoutedLocation[] | Promise<RoutedLocation[]> {
      const t = current();
      const a = accessOf(userId);
      if (t instanceof Promise || a instanceof Promise)
        return Promise.all([t, a]).then(([tt, aa]) => pick(tt, aa));
      return pick(t, a);
    },
    async exists(slug: string): Promise<boolean> {
      return (await current()).bySlug.has(slug);
    },
    /** The location with this id, if it is served. */
    async byId(id: string): Promise<RoutedLocation | undefined> {
      return (await current()).list.find((l) => l.id === id);
    },
    /** After a change made in this process: the next call reads the store again. */
    forget(userId?: string): void {
      if (userId === undefined) {
        table = null;
        reach.clear();
      } else reach.delete(userId);
    },
    cachedUsers: () => reach.size,
  };
}
