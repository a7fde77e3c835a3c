import type { LocationAccess } from '@review-desk/shared';
import type { Config } from '../env.ts';
import type { LocationStore } from './store.ts';

// Where each location's calls go, and which locations a user may address. The table is read
// from the store and kept for `reloadMs` (a key rotated or a location added with the CLI is in use
// within that time, in every process); a user's reach likewise, in a map bounded by
// MAX_CACHED_USERS. With no location stored, the configured UPSTREAM_URL and key are the one
// implicit location, and every user has it: the BFF behaves as it did before locations existed.

export type Upstream = Config['upstream'];

export type RoutedLocation = {
  slug: string;
  name: string;
  upstream: Upstream;
  /** Changes when the location's upstream or key changes: handlers built for an older one are replaced. */
  version: number;
};

/** The slug of the location UPSTREAM_URL and UPSTREAM_API_KEY imply while none is stored. */
export const IMPLICIT_SLUG = 'main';
export const MAX_CACHED_USERS = 10_000;

type Table = { at: number; list: RoutedLocation[]; bySlug: Map<string, RoutedLocation>; implicit: boolean };

export type LocationDirectory = ReturnType<typeof createLocationDirectory>;

export function createLocationDirectory(deps: {
  config: Pick<Config, 'upstream' | 'businessName'>;
  store: () => Promise<LocationStore>;
  reloadMs?: number;
  now?: () => number;
  /** A reload that failed (the last good table is kept): said once per different reason. */
  onReloadFailed?: (error: unknown) => void;
}) {
  const { config } = deps;
  const reloadMs = deps.reloadMs ?? 2_000;
  const now = deps.now ?? Date.now;
  const implicit: RoutedLocation = {
    slug: IMPLICIT_SLUG,
    name: config.businessName ?? 'Main location',
    upstream: config.upstream,
    version: 0,
  };
  let table: Table | null = null;
  let loading: Promise<Table> | null = null;
  let lastFailure: string | null = null;
  const reach = new Map<string, { at: number; access: LocationAccess }>();

  async function load(): Promise<Table> {
    const store = await deps.store();
    const stored = await store.credentials();
    const list: RoutedLocation[] = stored.map((l) => {
      const url = l.upstreamUrl === null ? config.upstream.url : new URL(l.upstreamUrl);
      return {
        slug: l.slug,
        name: l.name,
        version: l.updatedAt,
        upstream: {
          ...config.upstream,
          url,
          key: l.key,
          authScheme: l.authScheme,
          // Without its own Origin a location on the configured upstream keeps UPSTREAM_ORIGIN.
          origin: l.origin ?? (l.upstreamUrl === null ? config.upstream.origin : url.origin),
        },
      };
    });
    const empty = list.length === 0;
    const routed = empty ? [implicit] : list;
    return { at: now(), list: routed, bySlug: new Map(routed.map((l) => [l.slug, l])), implicit: empty };
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
        if (reason !== lastFailure) deps.onReloadFailed?.(error);
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
