import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { migrate } from '@review-desk/server/db/migrate';
import { openSqlite } from '@review-desk/server/db/sqlite/database';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../../test/support/processes.ts';
import { createSecretBox, parseSecretsKey } from '../src/locations/secrets.ts';
import { createLocationStore, LOCATION_MIGRATIONS } from '../src/locations/store.ts';

// The location commands on a real database file: keys in from a file or stdin, sealed at rest
// with the secrets key (made when missing), never printed.

const KEY_A = `rk_live_${randomBytes(12).toString('hex')}`;
const KEY_B = `rk_live_${randomBytes(12).toString('hex')}`;

describe('location CLI', () => {
  const temp = tempDir('bff-locations-cli-');
  afterAll(() => temp.cleanup());
  const env = {
    BFF_DATABASE_PATH: path.join(temp.dir, 'data', 'bff.db'),
    BFF_SECRETS_KEY_FILE: path.join(temp.dir, 'secrets', 'bff-secrets.key'),
  };
  const cli = (args: string[], stdin?: string) =>
    runCli('bff', ['location', ...args], { env, ...(stdin === undefined ? {} : { stdin }) });

  async function stored() {
    const key = parseSecretsKey(readFileSync(env.BFF_SECRETS_KEY_FILE, 'utf8'));
    const db = openSqlite({ file: env.BFF_DATABASE_PATH });
    await migrate(db, [LOCATION_MIGRATIONS]);
    try {
      return await createLocationStore(db, createSecretBox(key as Uint8Array)).credentials();
    } finally {
      await db.close();
    }
  }

  // Each of these runs eight or more CLI processes one after another: room for a busy machine.
  it('adds from a key file and from stdin, lists without keys, rotates and removes', async () => {
    const keyFile = path.join(temp.dir, 'downtown.key');
    writeFileSync(keyFile, `${KEY_A}\n`);
    expect(await cli(['list'])).toMatch(/No locations: the BFF serves UPSTREAM_URL/);
    expect(await cli(['add', '--slug', 'downtown', '--name', 'Downtown', '--key-file', keyFile])).toMatch(
      /Added location downtown \(Downtown\)/,
    );
    await cli(
      [
        'add',
        '--slug',
        'airport',
        '--name',
        'Airport',
        '--upstream',
        'http://127.0.0.1:27999/base',
        '--auth-scheme',
        'bearer',
        '--origin',
        'https://reviews.example',
      ],
      `${KEY_B}\n`,
    );
    expect(statSync(env.BFF_SECRETS_KEY_FILE).mode & 0o777).toBe(0o600);

    const listed = await cli(['list']);
    expect(listed).toMatch(/downtown\s+Downtown\s+\(UPSTREAM_URL\)/);
    expect(listed).toMatch(
      /airport\s+Airport\s+http:\/\/127\.0\.0\.1:27999\/base\s+bearer\s+https:\/\/reviews\.example/,
    );
    const json = JSON.parse(await cli(['list', '--json'])) as { slug: string }[];
    expect(json.map((l) => l.slug)).toEqual(['downtown', 'airport']);
    for (const out of [listed, JSON.stringify(json)]) {
      expect(out).not.toContain(KEY_A);
      expect(out).not.toContain(KEY_B);
    }
    // At rest: neither key appears anywhere in the database's files.
    for (const file of readdirSync(path.dirname(env.BFF_DATABASE_PATH))) {
      const bytes = readFileSync(path.join(path.dirname(env.BFF_DATABASE_PATH), file));
      expect(bytes.includes(KEY_A), file).toBe(false);
      expect(bytes.includes(KEY_B), file).toBe(false);
    }
    expect((await stored()).map((l) => [l.slug, l.key])).toEqual([
      ['downtown', KEY_A],
      ['airport', KEY_B],
    ]);

    const rotated = `rk_live_${randomBytes(12).toString('hex')}`;
    expect(await cli(['rotate-key', '--slug', 'downtown'], `${rotated}\n`)).not.toContain(rotated);
    expect((await stored()).find((l) => l.slug === 'downtown')?.key).toBe(rotated);

    expect(await cli(['remove', '--slug', 'airport'])).toMatch(/Removed location airport/);
    expect((await stored()).map((l) => l.slug)).toEqual(['downtown']);
  }, 90_000);

  it('refuses bad input with a clear line and writes nothing', async () => {
    await expect(cli(['add', '--slug', 'Bad Slug', '--name', 'X'], 'k\n')).rejects.toThrow(
      /exited 2.*--slug: slug must be/s,
    );
    await expect(cli(['add', '--slug', 'x', '--name', 'X', '--upstream', 'ftp://h'], 'k\n')).rejects.toThrow(
      /--upstream: must be an http or https URL/,
    );
    await expect(cli(['add', '--slug', 'x', '--name', 'X'], '\n')).rejects.toThrow(
      /exited 1.*the key on stdin is empty/s,
    );
    await expect(
      cli(['add', '--slug', 'x', '--name', 'X', '--key-file', '/nonexistent/key']),
    ).rejects.toThrow(/--key-file: cannot read/);
    await expect(cli(['add', '--slug', 'downtown', '--name', 'Again'], 'rk_x\n')).rejects.toThrow(
      /exited 1.*already exists/s,
    );
    await expect(cli(['rotate-key', '--slug', 'ghost'], 'rk_x\n')).rejects.toThrow(
      /exited 1.*No location with the slug ghost/s,
    );
    await expect(cli(['remove', '--slug', 'ghost'])).rejects.toThrow(/No location with the slug ghost/);
    await expect(cli(['frobnicate'])).rejects.toThrow(/exited 2.*unknown command: location frobnicate/s);
    expect((await stored()).map((l) => l.slug)).toEqual(['downtown']);
  }, 90_000);

  it('a bad BFF_SECRETS_KEY stops the command without naming its value', async () => {
    const bad = 'not-a-valid-secrets-key-value';
    const run = runCli('bff', ['location', 'add', '--slug', 'y', '--name', 'Y'], {
      env: { ...env, BFF_SECRETS_KEY: bad },
      stdin: 'rk_y\n',
    });
    await expect(run).rejects.toThrow(/BFF_SECRETS_KEY/);
    await expect(run).rejects.not.toThrow(new RegExp(bad));
  });
});
