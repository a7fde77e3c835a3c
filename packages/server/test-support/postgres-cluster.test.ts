import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresStartError, startPostgresCluster } from './postgres-cluster.ts';

// The tests' own PostgreSQL (postgres-cluster.ts) starts wherever the repository is, also as root
// from a folder other users cannot enter (root's home is 0700, as in many CI containers), and a
// start that cannot happen says why in one plain line.

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const closed = mkdtempSync(path.join(tmpdir(), 'rd-closed-'));
afterAll(() => rmSync(closed, { recursive: true, force: true }));

describe("the tests' PostgreSQL", () => {
  it('starts from a repository under a folder only its owner may enter, and answers queries', () => {
    // mkdtemp makes the folder 0700. The repository is reached through it by a link, and Node is
    // told to keep the link's path, so the server binaries are found *under* the closed folder,
    // as in a clone there.
    symlinkSync(repository, path.join(closed, 'repo'));
    const script = path.join(closed, 'start.ts');
    writeFileSync(
      script,
      `import { createRequire } from 'node:module';
import { startPostgresCluster } from ${JSON.stringify(path.join(closed, 'repo/packages/server/test-support/postgres-cluster.ts'))};
const pg = createRequire(${JSON.stringify(path.join(closed, 'repo/package.json'))})('pg');
const cluster = await startPostgresCluster();
const client = new pg.Client({ connectionString: cluster.url });
await client.connect();
const { rows } = await client.query('SELECT 1 + 1 AS two');
await client.end();
await cluster.stop();
console.log('answered', rows[0].two);
`,
    );
    const child = spawnSync(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', script], {
      cwd: path.join(closed, 'repo'),
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(child.stderr).not.toMatch(/EACCES|Unhandled/);
    expect(child.stdout.trim()).toBe('answered 2');
    expect(child.status).toBe(0);
  }, 150_000);

  it('a server that cannot start is refused in one plain line naming why', async () => {
    const failure = await startPostgresCluster({ settings: { no_such_setting: 1 } }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PostgresStartError);
    const message = (failure as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/did not start: .*no_such_setting/);
  }, 60_000);
});
