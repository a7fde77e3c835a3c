import { randomBytes } from 'node:crypto';
import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Database } from '@review-desk/server/db/types';
import { AppError } from '@review-desk/server/errors';
import type { AuthScheme, LocationAccess } from '@review-desk/shared';
import { adoptImplicitRecords, dropLocationRecords } from './records/records.ts';
import type { SecretBox } from './secrets.ts';

// The locations table and who may see which (component `locations`, own migrations). A location's
// key is sealed at rest (secrets.ts) and opened only for the upstream it belongs to; nothing here
// returns a key except `credentials`, which the proxy alone calls.

export const LOCATION_MIGRATIONS = migrationsBeside(import.meta.url, 'locations');

export type Location = {
  /** Never used again once the location is removed: what its records are bound to. */
  id: string;
  slug: string;
  name: string;
  /** null: the configured UPSTREAM_URL. */
  upstreamUrl: string | null;
  authScheme: AuthScheme;
  /** null: the upstream's own origin. */
  origin: string | null;
  createdAt: number;
  updatedAt: number;
};

export type NewLocation = Omit<Location, 'id' | 'createdAt' | 'updatedAt'> & { key: string };

type LocationRow = {
  id: string;
  slug: string;
  name: string;
  upstream_url: string | null;
  key_sealed: string;
  auth_scheme: AuthScheme;
  origin: string | null;
  created_at: number;
  updated_at: number;
};

const COLUMNS = 'id, slug, name, upstream_url, key_sealed, auth_scheme, origin, created_at, updated_at';

function toLocation(row: LocationRow): Location {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    upstreamUrl: row.upstream_url,
    authScheme: row.auth_scheme,
    origin: row.origin,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The sealed key is bound to its slug: a value copied onto another row does not open. */
const keyContext = (slug: string) => `location-key:${slug}`;

export type LocationStore = ReturnType<typeof createLocationStore>;

export function createLocationStore(db: Database, box: SecretBox, now: () => number = Date.now) {
  const listAll = db.prepare(`SELECT ${COLUMNS} FROM locations ORDER BY position, slug`);
  const one = db.prepare(`SELECT ${COLUMNS} FROM locations WHERE slug = $1`);

  // Owners have every location, whatever a scope row says (decision 0026): an owner manages
  // every user, so an owner limited to some locations could always widen their own reach.
  async function scopeOf(userId: string): Promise<LocationAccess> {
    const scope = await db.get<{ all_locations: number | null; role: string | null }>(
      `SELECT s.all_locations, u.role FROM location_scopes s LEFT JOIN users u ON u.id = s.user_id
       WHERE s.user_id = $1`,
      userId,
    );
    if (!scope || scope.role === 'owner' || Number(scope.all_locations) === 1) return { all: true };
    const rows = await db.all<{ slug: string }>(
      `SELECT u.slug FROM user_locations u JOIN locations l ON l.slug = u.slug
       WHERE u.user_id = $1 ORDER BY l.position, l.slug`,
      userId,
    );
    return { all: false, slugs: rows.map((r) => r.slug) };
  }

  return {
    async list(): Promise<Location[]> {
      return (await listAll.all<LocationRow>()).map(toLocation);
    },

    async get(slug: string): Promise<Location | null> {
      const row = await one.get<LocationRow>(slug);
      return row ? toLocation(row) : null;
    },

    async add(input: NewLocation): Promise<Location> {
      const at = now();
      return db.transaction(async (tx) => {
        if (await tx.get('SELECT 1 AS there FROM locations WHERE slug = $1', input.slug))
          throw new AppError('location_exists');
        const next = await tx.get<{ position: number | null }>(
          'SELECT max(position) AS position FROM locations',
        );
        // 128 random bits: no location, removed or not, ever has this id again.
        const id = randomBytes(16).toString('hex');
        const row = await tx.get<LocationRow>(
          `INSERT INTO locations (id, slug, name, upstream_url, key_sealed, auth_scheme, origin, position, created_at, updated_at)
           VALUES ($9, $1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${COLUMNS}`,
          input.slug,
          input.name,
          input.upstreamUrl,
          box.seal(input.key, keyContext(input.slug)),
          input.authScheme,
          input.origin,
          Number(next?.position ?? 0) + 1,
          at,
          id,
        );
        // The first location replaces the implicit one (docs/locations.md) and takes its records.
        if (next?.position == null) await adoptImplicitRecords(tx, id);
        return toLocation(row as LocationRow);
      });
    },

    async rotateKey(slug: string, key: string): Promise<void> {
      const { changes } = await db.run(
        'UPDATE locations SET key_sealed = $2, updated_at = $3 WHERE slug = $1',
        slug,
        box.seal(key, keyContext(slug)),
        now(),
      );
      if (changes === 0) throw new AppError('location_not_found');
    },

    /** Removes the location with everyone's access to it, and every record it kept. */
    async remove(slug: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await tx.get<{ id: string }>('DELETE FROM locations WHERE slug = $1 RETURNING id', slug);
        if (!row) throw new AppError('location_not_found');
        await dropLocationRecords(tx, row.id);
      });
    },

    /** Every location with its key opened: for the proxy's routing table only, never for an answer. */
    async credentials(): Promise<(Location & { key: string })[]> {
      return (await listAll.all<LocationRow>()).map((row) => ({
        ...toLocation(row),
        key: box.open(row.key_sealed, keyContext(row.slug)),
      }));
    },

    accessOf: scopeOf,

    /** Replaces a user's reach; unknown slugs are refused (404) and nothing changes. */
    async setAccess(userId: string, access: LocationAccess): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.run('DELETE FROM location_scopes WHERE user_id = $1', userId);
        await tx.run(
          'INSERT INTO location_scopes (user_id, all_locations, updated_at) VALUES ($1, $2, $3)',
          userId,
          access.all ? 1 : 0,
          now(),
        );
        if (access.all) return;
        for (const slug of new Set(access.slugs)) {
          if (!(await tx.get('SELECT 1 AS there FROM locations WHERE slug = $1', slug)))
            throw new AppError('location_not_found', `No location with the slug ${slug}.`);
          await tx.run('INSERT INTO user_locations (user_id, slug) VALUES ($1, $2)', userId, slug);
        }
      });
    },

    /** A removed user's reach goes with them. */
    async forgetUser(userId: string): Promise<void> {
      await db.run('DELETE FROM location_scopes WHERE user_id = $1', userId);
    },
  };
}
