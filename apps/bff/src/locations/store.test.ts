import { randomBytes } from 'node:crypto';
import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { beforeEach, expect, it } from 'vitest';
import { ALL_BFF_MIGRATIONS } from '../store/database.ts';
import { createSecretBox } from './secrets.ts';
import { createLocationStore } from './store.ts';

const KEY = 'rk_live_downtown_secret_0123456789';

/** A location on the default upstream, with the X-API-Key scheme and no Origin of its own. */
const onDefaultUpstream = (slug: string, name: string, key = KEY) =>
  ({ slug, name, upstreamUrl: null, authScheme: 'x-api-key', origin: null, key }) as const;

describeEngines('location store', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: ALL_BFF_MIGRATIONS });
  const box = createSecretBox(randomBytes(32));
  const store = () => createLocationStore(database().db, box);

  beforeEach(async () => {
    await database().db.exec(
      'DELETE FROM location_scopes; DELETE FROM locations; DELETE FROM sends; DELETE FROM bulk_rows; DELETE FROM bulk_jobs; DELETE FROM alerts; DELETE FROM alert_seen; DELETE FROM alert_watches;',
    );
  });

  it('adds locations in order, seals the key at rest and opens it only through credentials', async () => {
    const locations = store();
    await locations.add(onDefaultUpstream('downtown', 'Downtown'));
    await locations.add({
      slug: 'airport',
      name: 'Airport',
      upstreamUrl: 'http://127.0.0.1:9/base',
      authScheme: 'bearer',
      origin: 'https://reviews.example',
      key: 'rk_live_airport',
    });
    const list = await locations.list();
    expect(list.map((l) => l.slug)).toEqual(['downtown', 'airport']);
    expect(JSON.stringify(list)).not.toContain('rk_live');
    const row = await database().db.get<{ key_sealed: string }>(
      'SELECT key_sealed FROM locations WHERE slug = $1',
      'downtown',
    );
    expect(row?.key_sealed).toMatch(/^v1\./);
    expect(row?.key_sealed).not.toContain(KEY);
    const credentials = await locations.credentials();
    expect(credentials.map((c) => [c.slug, c.key, c.authScheme, c.origin, c.upstreamUrl])).toEqual([
      ['downtown', KEY, 'x-api-key', null, null],
      ['airport', 'rk_live_airport', 'bearer', 'https://reviews.example', 'http://127.0.0.1:9/base'],
    ]);
  });

  it('refuses a second location with the same slug, and rotating or removing an unknown one', async () => {
    const locations = store();
    const input = onDefaultUpstream('dup', 'Dup');
    await locations.add(input);
    await expect(locations.add(input)).rejects.toMatchObject({ code: 'location_exists' });
    await expect(locations.rotateKey('nope', KEY)).rejects.toMatchObject({ code: 'location_not_found' });
    await expect(locations.remove('nope')).rejects.toMatchObject({ code: 'location_not_found' });
  });

  it('rotates a key: the new one opens, the old one is gone', async () => {
    const locations = store();
    await locations.add(onDefaultUpstream('r', 'R'));
    await locations.rotateKey('r', 'rk_live_new');
    expect((await locations.credentials())[0]?.key).toBe('rk_live_new');
  });

  it('a sealed key copied onto another location, or read with another secrets key, does not open', async () => {
    const locations = store();
    await locations.add(onDefaultUpstream('a', 'A', 'ka'));
    await locations.add(onDefaultUpstream('b', 'B', 'kb'));
    const other = createLocationStore(database().db, createSecretBox(randomBytes(32)));
    await expect(other.credentials()).rejects.toThrow(/does not open/);
    await database().db.run(
      'UPDATE locations SET key_sealed = (SELECT key_sealed FROM locations WHERE slug = $1) WHERE slug = $2',
      'a',
      'b',
    );
    await expect(locations.credentials()).rejects.toThrow(/does not open/);
  });

  it("keeps each user's reach: all by default, chosen locations, and loses a removed location", async () => {
    const locations = store();
    for (const slug of ['one', 'two', 'three']) await locations.add(onDefaultUpstream(slug, slug));
    expect(await locations.accessOf('u1')).toEqual({ all: true });
    await locations.setAccess('u1', { all: false, slugs: ['three', 'one'] });
    expect(await locations.accessOf('u1')).toEqual({ all: false, slugs: ['one', 'three'] });
    await expect(locations.setAccess('u1', { all: false, slugs: ['one', 'ghost'] })).rejects.toMatchObject({
      code: 'location_not_found',
    });
    expect(await locations.accessOf('u1')).toEqual({ all: false, slugs: ['one', 'three'] });
    await locations.remove('one');
    expect(await locations.accessOf('u1')).toEqual({ all: false, slugs: ['three'] });
    await locations.setAccess('u1', { all: true });
    expect(await locations.accessOf('u1')).toEqual({ all: true });
    await locations.setAccess('u2', { all: false, slugs: [] });
    await locations.forgetUser('u2');
    expect(await locations.accessOf('u2')).toEqual({ all: true });
  });

  /** One record of each kind a location keeps, bound to `location` (an id). */
  async function recordsAt(location: string, tag: string) {
    const db = database().db;
    await db.run(
      `INSERT INTO sends (id, user_id, sent_by, fingerprint, channel, contact_masked, outcome, created_at, location)
       VALUES ($1, 'u1', 'a@example.com', 'f', 'sms', '+1•••', 'sent', 1, $2)`,
      `send-${tag}`,
      location,
    );
    await db.run(
      `INSERT INTO bulk_jobs (id, location, channel, skip_recent, status, runs, created_by, created_by_email, total, created_at)
       VALUES ($1, $2, 'sms', 0, 'done', 1, 'u1', 'a@example.com', 1, 1)`,
      `bulk-${tag}`,
      location,
    );
    await db.run(
      `INSERT INTO bulk_rows (job_id, idx, contact_masked, outcome, generation) VALUES ($1, 0, '+1•••', 'sent', 0)`,
      `bulk-${tag}`,
    );
    await db.run(
      `INSERT INTO alerts (user_id, location, review_id, rating, created_at, email) VALUES ('u1', $1, $2, 1, 1, 'none')`,
      location,
      `review-${tag}`,
    );
    await db.run(
      'INSERT INTO alert_seen (location, review_id, seen_at) VALUES ($1, $2, 1)',
      location,
      `review-${tag}`,
    );
    await db.run(
      'INSERT INTO alert_watches (location, polled_at, failures, updated_at) VALUES ($1, 1, 0, 1)',
      location,
    );
  }
  const count = async (table: string, location: string) =>
    Number(
      (
        await database().db.get<{ n: number }>(
          `SELECT count(*) AS n FROM ${table} WHERE location = $1`,
          location,
        )
      )?.n,
    );
  const TABLES = ['sends', 'bulk_jobs', 'alerts', 'alert_seen', 'alert_watches'];

  it('gives a location added under a removed one’s slug a new id and none of the removed one’s records', async () => {
    const locations = store();
    await locations.add(onDefaultUpstream('alpha', 'Alpha'));
    const beta = await locations.add(onDefaultUpstream('beta', 'Beta', 'rk_business_one'));
    await recordsAt(beta.id, 'old');
    await locations.remove('beta');
    for (const table of TABLES) expect({ table, n: await count(table, beta.id) }).toEqual({ table, n: 0 });
    expect(Number((await database().db.get<{ n: number }>('SELECT count(*) AS n FROM bulk_rows'))?.n)).toBe(
      0,
    );
    const again = await locations.add(onDefaultUpstream('beta', 'Beta again', 'rk_business_two'));
    expect(again.id).not.toBe(beta.id);
    expect(again.id).toMatch(/^[0-9a-f]{32}$/);
    for (const table of TABLES) expect({ table, n: await count(table, again.id) }).toEqual({ table, n: 0 });
  });

  it('gives the implicit location’s records to the first location stored, and to no later one', async () => {
    const locations = store();
    await recordsAt('', 'implicit');
    const first = await locations.add(onDefaultUpstream('first', 'First'));
    const second = await locations.add(onDefaultUpstream('second', 'Second'));
    for (const table of TABLES) {
      expect({ table, first: await count(table, first.id), second: await count(table, second.id) }).toEqual({
        table,
        first: 1,
        second: 0,
      });
    }
  });
});
