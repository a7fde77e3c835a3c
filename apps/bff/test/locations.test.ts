import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openSqlite } from '@review-desk/server/db/sqlite/database';
import { API_KEY_HEADER } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, type Recorded, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { request } from '../../../test/support/http.ts';
import { runCli, startApp, tempDir } from '../../../test/support/processes.ts';
import { bffTestEnv, newApiKey, waitFor } from '../../../test/support/stack.ts';
import { OWNER, startBff, type TestBff } from './support/bff.ts';
import { DashboardClient } from './support/client.ts';
import { SMS } from './support/fixtures.ts';

// Three locations on two upstreams, each with its own key, auth scheme and Origin: every call
// goes to its own location's upstream with that location's key and Origin only; a user limited
// to one location gets 403 for another before anything goes upstream; one upstream down leaves
// the others working.

const SECRETS = randomBytes(32).toString('hex');
const STAFF = { email: 'airport-staff@example.com', password: 'airport-staff-pw-1', role: 'staff' };

let a: FakeUpstream;
let b: FakeUpstream;
let bff: TestBff;
let owner: DashboardClient;
let staff: DashboardClient;
let staffId: string;
const temp = tempDir('bff-locations-');
const keys = { downtown: newApiKey(), airport: newApiKey(), uptown: newApiKey() };
const ORIGIN_B = 'https://airport-reviews.example';
const ORIGIN_C = 'https://uptown.example';

async function addLocation(args: string[], key: string) {
  const file = path.join(temp.dir, `${args[1]}.key`);
  writeFileSync(file, key);
  await runCli('bff', ['location', 'add', ...args, '--key-file', file], {
    env: { BFF_DATABASE_PATH: path.join(temp.dir, 'bff.db'), BFF_SECRETS_KEY: SECRETS },
  });
}

/** Every key a recorded call carried, in either header. */
function keysIn(calls: Recorded[]): string[] {
  return calls.map((c) => String(c.headers[API_KEY_HEADER] ?? c.headers.authorization ?? ''));
}

beforeAll(async () => {
  [a, b] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  await addLocation(['--slug', 'downtown', '--name', 'Downtown'], keys.downtown);
  await addLocation(
    [
      '--slug',
      'airport',
      '--name',
      'Airport',
      '--upstream',
      b.url,
      '--auth-scheme',
      'bearer',
      '--origin',
      ORIGIN_B,
    ],
    keys.airport,
  );
  await addLocation(['--slug', 'uptown', '--name', 'Uptown', '--origin', ORIGIN_C], keys.uptown);
  bff = await startBff(a.url, { BFF_SECRETS_KEY: SECRETS }, { dir: temp.dir, key: newApiKey() });
  owner = await bff.owner();
  const created = await owner.post('/bff/users', STAFF);
  staffId = created.json.data.user.id;
  expect(
    (
      await owner.request('PUT', `/bff/users/${staffId}/locations`, {
        body: { all: false, slugs: ['airport'] },
      })
    ).status,
  ).toBe(200);
  staff = bff.client();
  await staff.login(STAFF.email, STAFF.password);
});

afterAll(async () => {
  await bff?.stop();
  await Promise.all([a?.close(), b?.close()]);
  temp.cleanup();
});

describe('locations through the BFF', () => {
  it('lists the user’s locations by slug and name only', async () => {
    const reply = await owner.get('/bff/locations');
    expect(reply.status).toBe(200);
    expect(reply.json.data.locations).toEqual([
      { slug: 'downtown', name: 'Downtown' },
      { slug: 'airport', name: 'Airport' },
      { slug: 'uptown', name: 'Uptown' },
    ]);
    expect((await staff.get('/bff/locations')).json.data.locations).toEqual([
      { slug: 'airport', name: 'Airport' },
    ]);
    for (const key of Object.values(keys)) expect(reply.text).not.toContain(key);
    expect(reply.text).not.toContain(b.url);
  });

  it("sends each location's key and Origin only to its own upstream", async () => {
    a.reset();
    b.reset();
    expect((await owner.get('/l/airport/api/v1/reviews?page=1&limit=5')).status).toBe(200);
    expect(
      (await owner.post('/l/airport/api/v1/requests/send', SMS, { 'idempotency-key': crypto.randomUUID() }))
        .status,
    ).toBe(200);
    expect((await owner.get('/l/uptown/api/v1/analytics?days=30')).status).toBe(200);
    expect(
      (await owner.post('/l/uptown/api/v1/requests/send', SMS, { 'idempotency-key': crypto.randomUUID() }))
        .status,
    ).toBe(200);
    // No prefix: the owner's first location.
    expect((await owner.get('/api/v1/reviews')).status).toBe(200);
    expect(
      (await owner.post('/l/downtown/api/v1/requests/send', SMS, { 'idempotency-key': crypto.randomUUID() }))
        .status,
    ).toBe(200);

    expect(b.calls.map((c) => c.url.split('?')[0])).toEqual(['/api/v1/reviews', '/api/v1/requests/send']);
    expect(keysIn(b.calls)).toEqual([`Bearer ${keys.airport}`, `Bearer ${keys.airport}`]);
    expect(b.calls[1]?.headers.origin).toBe(ORIGIN_B);
    expect(keysIn(a.calls)).toEqual([keys.uptown, keys.uptown, keys.downtown, keys.downtown]);
    expect(a.calls[1]?.headers.origin).toBe(ORIGIN_C);
    // Downtown has no Origin of its own: the upstream's.
    expect(a.calls[3]?.headers.origin).toBe(new URL(a.url).origin);
    const everything = JSON.stringify([...a.calls, ...b.calls].map((c) => c.rawHeaders));
    expect(JSON.stringify(a.calls.map((c) => c.rawHeaders))).not.toContain(keys.airport);
    expect(JSON.stringify(b.calls.map((c) => c.rawHeaders))).not.toContain(keys.downtown);
    expect(JSON.stringify(b.calls.map((c) => c.rawHeaders))).not.toContain(keys.uptown);
    expect(everything).not.toContain(bff.key);
  });

  it('refuses a location the user lacks with 403 before anything goes upstream', async () => {
    a.reset();
    b.reset();
    const other = await staff.get('/l/downtown/api/v1/reviews');
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({ success: false, code: 'location_forbidden' });
    const send = await staff.post('/l/uptown/api/v1/requests/send', SMS, {
      'idempotency-key': crypto.randomUUID(),
    });
    expect(send.status).toBe(403);
    expect(send.json.code).toBe('location_forbidden');
    expect(a.calls).toHaveLength(0);
    // Their own location, with and without the prefix.
    expect((await staff.get('/l/airport/api/v1/reviews')).status).toBe(200);
    expect((await staff.get('/api/v1/reviews')).status).toBe(200);
    expect(b.calls).toHaveLength(2);
    expect(a.calls).toHaveLength(0);
  });

  it('answers an unknown or malformed location with 404, and keeps its other rules', async () => {
    const unknown = await owner.get('/l/ghost/api/v1/reviews');
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('location_not_found');
    expect((await owner.get('/l/Bad..Slug/api/v1/reviews')).json.code).toBe('not_found');
    // Staff still may not read analytics anywhere: the role is checked before the location.
    expect((await staff.get('/l/airport/api/v1/analytics')).json.code).toBe('role_forbidden');
    expect((await bff.client().get('/l/airport/api/v1/reviews')).status).toBe(401);
  });

  it('lets owners set a user’s reach, refusing unknown slugs and malformed bodies', async () => {
    const path = `/bff/users/${staffId}/locations`;
    expect((await owner.get(path)).json.data.access).toEqual({ all: false, slugs: ['airport'] });
    expect((await owner.request('PUT', path, { body: { all: false, slugs: ['ghost'] } })).json.code).toBe(
      'location_not_found',
    );
    expect((await owner.request('PUT', path, { body: { all: 'yes' } })).status).toBe(400);
    expect((await owner.request('PUT', '/bff/users/nobody/locations', { body: { all: true } })).status).toBe(
      404,
    );
    expect((await staff.request('PUT', path, { body: { all: true } })).json.code).toBe('role_forbidden');
    expect((await owner.get(path)).json.data.access).toEqual({ all: false, slugs: ['airport'] });
  });

  it('answers the overview from every location, each call with its own key, in one request', async () => {
    a.reset();
    b.reset();
    const reply = await owner.get('/bff/overview?days=30');
    expect(reply.status).toBe(200);
    // The stand-in reports completions only, and one pending review rated 5★: no reply figures.
    const figures = {
      sent: null,
      completed: 3,
      completionRate: null,
      reviews: null,
      avgRating: null,
      lowWaiting: 0,
      responded: null,
      responseRate: null,
      medianFirstReplySeconds: null,
    };
    expect(reply.json.data.rows).toEqual([
      { slug: 'downtown', name: 'Downtown', ok: true, ...figures },
      { slug: 'airport', name: 'Airport', ok: true, ...figures },
      { slug: 'uptown', name: 'Uptown', ok: true, ...figures },
    ]);
    expect(keysIn(b.calls)).toEqual(Array(3).fill(`Bearer ${keys.airport}`));
    expect(keysIn(a.calls).sort()).toEqual(
      [...Array(3).fill(keys.downtown), ...Array(3).fill(keys.uptown)].sort(),
    );
    for (const key of Object.values(keys)) expect(reply.text).not.toContain(key);
    // Only the user's locations; staff may not read analytics at all; the window is checked.
    expect((await staff.get('/bff/overview?days=30')).json.code).toBe('role_forbidden');
    expect((await owner.get('/bff/overview?days=0')).status).toBe(400);
    expect((await owner.get('/bff/overview?days=7&extra=1')).status).toBe(400);
  });

  it('a key rotated with the CLI is in use by the running BFF within seconds, the old one no longer sent', async () => {
    const rotated = newApiKey();
    await runCli('bff', ['location', 'rotate-key', '--slug', 'uptown'], {
      env: { BFF_DATABASE_PATH: path.join(temp.dir, 'bff.db'), BFF_SECRETS_KEY: SECRETS },
      stdin: `${rotated}\n`,
    });
    const deadline = Date.now() + 8_000;
    let seen = '';
    while (Date.now() < deadline) {
      a.reset();
      expect((await owner.get('/l/uptown/api/v1/reviews')).status).toBe(200);
      seen = keysIn(a.calls)[0] ?? '';
      if (seen === rotated) break;
      await new Promise((resolve) => setTimeout(resolve, 200)); // poll: a look again after the reload
    }
    expect(seen).toBe(rotated);
    a.reset();
    await owner.post('/l/uptown/api/v1/requests/send', SMS, { 'idempotency-key': crypto.randomUUID() });
    expect(keysIn(a.calls)).toEqual([rotated]);
    keys.uptown = rotated;
  });

  it('never limits an owner: a limit is refused, and a user made owner reaches every location', async () => {
    const other = await owner.post('/bff/users', {
      email: 'second-owner@example.com',
      password: 'second-owner-pw-1',
      role: 'owner',
    });
    const ownerId = other.json.data.user.id;
    const limited = await owner.request('PUT', `/bff/users/${ownerId}/locations`, {
      body: { all: false, slugs: ['airport'] },
    });
    expect({ status: limited.status, code: limited.json.code }).toEqual({
      status: 409,
      code: 'owner_every_location',
    });
    expect((await owner.get(`/bff/users/${ownerId}/locations`)).json.data.access).toEqual({ all: true });

    // A manager limited to the airport, then made owner: every location, at once and later.
    const manager = await owner.post('/bff/users', {
      email: 'promoted@example.com',
      password: 'promoted-pw-123',
      role: 'manager',
    });
    const managerId = manager.json.data.user.id;
    await owner.request('PUT', `/bff/users/${managerId}/locations`, {
      body: { all: false, slugs: ['airport'] },
    });
    expect(
      (await owner.request('PATCH', `/bff/users/${managerId}`, { body: { role: 'owner' } })).status,
    ).toBe(200);
    expect((await owner.get(`/bff/users/${managerId}/locations`)).json.data.access).toEqual({ all: true });
    const promoted = bff.client();
    await promoted.login('promoted@example.com', 'promoted-pw-123');
    const deadline = Date.now() + 5_000;
    let slugs: string[] = [];
    while (Date.now() < deadline) {
      slugs = (await promoted.get('/bff/locations')).json.data.locations.map((l: { slug: string }) => l.slug);
      if (slugs.length === 3) break;
      // Poll: the promotion reaches the user's session when the BFF next reads the table.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(slugs).toEqual(['downtown', 'airport', 'uptown']);
    expect((await promoted.get('/l/uptown/api/v1/reviews')).status).toBe(200);
    for (const id of [ownerId, managerId]) await owner.request('DELETE', `/bff/users/${id}`);
  });

  it("a removed user's reach goes with them", async () => {
    const other = await owner.post('/bff/users', { ...STAFF, email: 'gone@example.com' });
    const id = other.json.data.user.id;
    await owner.request('PUT', `/bff/users/${id}/locations`, { body: { all: false, slugs: ['uptown'] } });
    expect((await owner.request('DELETE', `/bff/users/${id}`)).status).toBe(200);
    const db = openSqlite({ file: bff.databasePath });
    try {
      expect(await db.get('SELECT 1 AS there FROM location_scopes WHERE user_id = $1', id)).toBeUndefined();
      expect(await db.get('SELECT 1 AS there FROM user_locations WHERE user_id = $1', id)).toBeUndefined();
    } finally {
      await db.close();
    }
  });

  it('keeps each location’s send history and contact warning to itself', async () => {
    const customer = { customerName: 'Uptown Only', customerPhone: '+14155550123', channel: 'sms' };
    const sent = await owner.request('POST', '/l/uptown/api/v1/requests/send', {
      body: customer,
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect([200, 201]).toContain(sent.status);
    const names = async (slug: string, query = '') =>
      (
        (await owner.get(`/l/${slug}/bff/sends?limit=100${query}`)).json.data.sends as {
          customerName: string;
        }[]
      ).map((s) => s.customerName);
    expect(await names('uptown')).toContain('Uptown Only');
    expect(await names('downtown')).not.toContain('Uptown Only');
    // The contact lookup the send form's "sent to this contact" warning reads, per location.
    const contact = `&contact=${encodeURIComponent('+1 415 555 0123')}`;
    expect(await names('uptown', contact)).toEqual(['Uptown Only']);
    expect(await names('downtown', contact)).toEqual([]);
    // A user without the location gets no history of it either.
    expect((await staff.get('/l/uptown/bff/sends')).status).toBe(403);
  });

  it('refuses to remove a location while a list send of it is not finished', async () => {
    const db = openSqlite({ file: bff.databasePath });
    const env = { BFF_DATABASE_PATH: bff.databasePath, BFF_SECRETS_KEY: SECRETS };
    try {
      await db.run(
        `INSERT INTO bulk_jobs (id, location, channel, skip_recent, status, runs, created_by, created_by_email, total, created_at)
         VALUES ('job-uptown', (SELECT id FROM locations WHERE slug = 'uptown'), 'sms', 0, 'paused', 1, 'u', 'u@example.com', 3, $1)`,
        Date.now(),
      );
      await expect(runCli('bff', ['location', 'remove', '--slug', 'uptown'], { env })).rejects.toThrow(
        /exited 1.*uptown has 1 list send not finished \(running or paused\)/s,
      );
      expect(await db.get(`SELECT slug FROM locations WHERE slug = 'uptown'`)).toEqual({ slug: 'uptown' });
    } finally {
      await db.run(`DELETE FROM bulk_jobs WHERE id = 'job-uptown'`);
      await db.close();
    }
  }, 60_000);

  it('answers a key used at one location with 422 at another, sending nothing there', async () => {
    const key = crypto.randomUUID();
    a.reset();
    b.reset();
    const first = await owner.post('/l/downtown/api/v1/requests/send', SMS, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    for (const slug of ['airport', 'uptown']) {
      const again = await owner.post(`/l/${slug}/api/v1/requests/send`, SMS, { 'idempotency-key': key });
      expect({ slug, status: again.status, code: again.json.code }).toEqual({
        slug,
        status: 422,
        code: 'idempotency_mismatch',
      });
      expect(again.json.error).toMatch(/another location; nothing was sent here/);
      expect(again.headers.get('idempotency-replayed')).toBeNull();
    }
    // One send, at downtown; airport's and uptown's upstreams saw nothing of it.
    expect(a.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(keysIn(a.calls)).toEqual([keys.downtown]);
    expect(b.calls).toHaveLength(0);
    // At its own location the key still replays the first answer.
    const replay = await owner.post('/l/downtown/api/v1/requests/send', SMS, { 'idempotency-key': key });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
  });

  it('shows a location added under a removed one’s slug, with another key, nothing of the removed one', async () => {
    const env = { BFF_DATABASE_PATH: bff.databasePath, BFF_SECRETS_KEY: SECRETS };
    const firstKey = newApiKey();
    const secondKey = newApiKey();
    await addLocation(['--slug', 'beta', '--name', 'Beta'], firstKey);
    /** Waits until the running BFF sends beta's calls with `key` (it reads the table every 2 s). */
    const routedWith = async (key: string) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        a.reset();
        const reply = await owner.get('/l/beta/api/v1/reviews');
        if (reply.status === 200 && keysIn(a.calls)[0] === key) return;
        if (Date.now() > deadline) throw new Error(`beta is not routed with its key: ${reply.status}`);
        // Poll: the re-added location is routed once the BFF reads the table again.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    await routedWith(firstKey);
    const customer = { customerName: 'Old Business Customer', customerPhone: '+14155550177', channel: 'sms' };
    const sent = await owner.post('/l/beta/api/v1/requests/send', customer, {
      'idempotency-key': crypto.randomUUID(),
    });
    expect(sent.status).toBe(200);
    const list = await owner.post('/l/beta/bff/bulk-sends', {
      channel: 'sms',
      rows: [{ customerName: 'Old List Row', customerPhone: '+14155550178' }],
    });
    expect(list.status).toBe(202);
    const job = list.json.data.id as string;
    await owner.post(`/l/beta/bff/bulk-sends/${job}/cancel`, {});
    expect((await owner.get('/l/beta/bff/sends')).json.data.total).toBeGreaterThan(0);

    await runCli('bff', ['location', 'remove', '--slug', 'beta'], { env });
    await addLocation(['--slug', 'beta', '--name', 'Beta'], secondKey);
    await routedWith(secondKey);

    const history = await owner.get('/l/beta/bff/sends?limit=100');
    expect(history.status).toBe(200);
    expect(history.json.data).toMatchObject({ total: 0, sends: [] });
    expect(history.text).not.toContain('Old Business Customer');
    const contact = await owner.get(`/l/beta/bff/sends?contact=${encodeURIComponent('+14155550177')}`);
    expect(contact.json.data.total).toBe(0);
    const lists = await owner.get('/l/beta/bff/bulk-sends');
    expect(lists.json.data.jobs).toEqual([]);
    for (const path of [`/l/beta/bff/bulk-sends/${job}`, `/l/beta/bff/bulk-sends/${job}/results.csv`]) {
      const old = await owner.get(path);
      expect({ path, status: old.status, code: old.json?.code }).toEqual({
        path,
        status: 404,
        code: 'bulk_not_found',
      });
    }
    // Removing a location dropped its records; nothing of the old business is left to find.
    const db = openSqlite({ file: bff.databasePath });
    try {
      expect(
        await db.get(`SELECT 1 AS there FROM sends WHERE customer_name = 'Old Business Customer'`),
      ).toBeUndefined();
      expect(await db.get('SELECT 1 AS there FROM bulk_jobs WHERE id = $1', job)).toBeUndefined();
    } finally {
      await db.close();
    }
    await runCli('bff', ['location', 'remove', '--slug', 'beta'], { env });
    // The tests after this one see the three locations again once the BFF reads the table.
    const slugs = async () =>
      (await owner.get('/bff/locations')).json.data.locations.map((l: { slug: string }) => l.slug);
    await waitFor(async () => !(await slugs()).includes('beta'), 10_000, 'beta gone');
  }, 60_000);

  it("one location's upstream down fails only that location", async () => {
    await b.close();
    const down = await owner.get('/l/airport/api/v1/reviews');
    expect(down.status).toBe(502);
    expect(down.json.code).toBe('upstream_unreachable');
    expect((await owner.get('/l/uptown/api/v1/reviews')).status).toBe(200);
    const overview = await owner.get('/bff/overview?days=7');
    expect(overview.status).toBe(200);
    const rows = overview.json.data.rows;
    expect(rows.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, true]);
    expect(rows[1]).toMatchObject({ slug: 'airport', ok: false, code: 'upstream_unreachable' });
  });
});

describe('no location stored', () => {
  it('the first location added with the CLI while the BFF runs, with the key file the CLI makes, is in use within seconds', async () => {
    const upstream = await startFakeUpstream();
    const dir = tempDir('bff-first-location-');
    // The zero-setup way: no secrets key anywhere; the CLI's first `location add` makes the file.
    const env = {
      BFF_DATABASE_PATH: path.join(dir.dir, 'bff.db'),
      BFF_SECRETS_KEY_FILE: path.join(dir.dir, 'secrets', 'bff-secrets.key'),
    };
    const running = await startBff(
      upstream.url,
      { BFF_SECRETS_KEY_FILE: env.BFF_SECRETS_KEY_FILE },
      { dir: dir.dir },
    );
    try {
      const client = await running.owner();
      expect((await client.get('/bff/locations')).json.data.locations).toEqual([
        { slug: 'main', name: 'Main location' },
      ]);
      const keyFile = path.join(dir.dir, 'harbour.key');
      writeFileSync(keyFile, keys.downtown);
      const said = await runCli(
        'bff',
        ['location', 'add', '--slug', 'harbour', '--name', 'Harbour', '--key-file', keyFile],
        {
          env,
        },
      );
      expect(said).toMatch(/A running dashboard server uses it within 2 seconds/);
      let slugs: string[] = [];
      await waitFor(
        async () => {
          slugs = (await client.get('/bff/locations')).json.data.locations.map(
            (l: { slug: string }) => l.slug,
          );
          return slugs.includes('harbour');
        },
        10_000,
        'the location added with the CLI',
      );
      expect(slugs).toEqual(['harbour']);
      // In use: its calls carry its key.
      expect((await client.get('/l/harbour/api/v1/reviews')).status).toBe(200);
      expect(keysIn(upstream.calls).at(-1)).toBe(keys.downtown);
    } finally {
      await running.stop();
      await upstream.close();
      dir.cleanup();
    }
  });

  it('serves UPSTREAM_URL and its key as the one implicit location', async () => {
    const upstream = await startFakeUpstream();
    const plain = await startBff(upstream.url);
    try {
      const client = await plain.owner();
      const list = await client.get('/bff/locations');
      expect(list.json.data.locations).toEqual([{ slug: 'main', name: 'Main location' }]);
      expect((await client.get('/api/v1/reviews')).status).toBe(200);
      expect((await client.get('/l/main/api/v1/reviews')).status).toBe(200);
      expect(keysIn(upstream.calls)).toEqual([plain.key, plain.key]);
    } finally {
      await plain.stop();
      await upstream.close();
    }
  });
});

describe('without UPSTREAM_URL', () => {
  it('starts on the stored locations alone; with none stored, or one without an upstream, it refuses in one line', async () => {
    const own = tempDir('bff-no-upstream-');
    const upstream = await startFakeUpstream();
    const env = {
      ...bffTestEnv('', '', own.dir, {}),
      UPSTREAM_URL: '',
      UPSTREAM_API_KEY: '',
      BFF_SECRETS_KEY: SECRETS,
    };
    const cli = (args: string[], key: string) => {
      const file = path.join(own.dir, `${args[1]}.key`);
      writeFileSync(file, key);
      return runCli('bff', ['location', 'add', ...args, '--key-file', file], {
        env: { BFF_DATABASE_PATH: path.join(own.dir, 'bff.db'), BFF_SECRETS_KEY: SECRETS },
      });
    };
    try {
      /** The plain lines of a start that cannot happen (the others are its JSON log lines). */
      const refusal = async () => {
        const error = (await startApp('bff', { env }).catch((e: Error) => e)) as Error;
        expect(error.message).not.toMatch(/\n\s+at /);
        return error.message
          .split('\n')
          .slice(1)
          .filter((line) => !line.startsWith('{'));
      };
      expect(await refusal()).toEqual([
        'Invalid configuration: UPSTREAM_URL is required while no location is stored (or add one: npm run cli -w apps/bff -- location add).',
      ]);
      const soloKey = newApiKey();
      await cli(['--slug', 'solo', '--name', 'Solo', '--upstream', upstream.url], soloKey);
      const app = await startApp('bff', { env });
      try {
        const owner = new DashboardClient(app.url);
        expect((await owner.login(OWNER.email, OWNER.password)).status).toBe(200);
        expect((await owner.get('/bff/locations')).json.data.locations).toEqual([
          { slug: 'solo', name: 'Solo' },
        ]);
        expect((await owner.get('/l/solo/api/v1/reviews')).status).toBe(200);
        expect(keysIn(upstream.calls)).toEqual([soloKey]);
        const ready = await request(app.url, '/readyz');
        expect(ready.status).toBe(200);
      } finally {
        await app.stop();
      }
      // A location that relies on UPSTREAM_URL cannot be served without it: named, no start.
      await cli(['--slug', 'leaning', '--name', 'Leaning'], newApiKey());
      expect(await refusal()).toEqual([
        'A location cannot be served: leaning has no upstream of its own and UPSTREAM_URL is not set.',
      ]);
    } finally {
      await upstream.close();
      own.cleanup();
    }
  }, 90_000);
});
