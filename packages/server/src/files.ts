import { accessSync, chmodSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StartupError } from './startup-error.ts';

// What the services store holds password hashes, session data, key hashes and the contact HMAC
// secret: their folders are 0700 and their files 0600, whatever the process's umask.

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and missing parents) with mode 0700, tightens an existing one (a folder an older
 * version created readable by all), and checks the process can write in it. A folder others share
 * is never changed: one with the sticky bit (`/tmp`), the filesystem's root or the home folder,
 * where a database file may sit directly and whose mode other programs rely on. `variable` names the setting that chose the
 * folder, for the one-line refusal when it cannot be used.
 */
export function ensurePrivateDir(dir: string, variable?: string): void {
  const where = variable ? ` (${variable})` : '';
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new StartupError(
      `Cannot use the data folder ${dir}${where}: ${reason}. Choose a folder this user can write.`,
      {
        ...(variable ? { variable } : {}),
        cause: error,
      },
    );
  }
  if (!isShared(dir)) tighten(dir, PRIVATE_DIR_MODE);
}

const STICKY = 0o1000;

function isShared(dir: string): boolean {
  const resolved = path.resolve(dir);
  if (resolved === path.parse(resolved).root || resolved === path.resolve(homedir())) return true;
  try {
    return (statSync(resolved).mode & STICKY) !== 0;
  } catch {
    return false;
  }
}

/** Sets an existing file (a database, its -wal/-shm companions, a key file) to 0600. */
export function makePrivate(file: string): void {
  if (existsSync(file)) tighten(file, PRIVATE_FILE_MODE);
}

/** The database file and the companions SQLite creates beside it. */
export function sqliteFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

function tighten(target: string, mode: number): void {
  try {
    if ((statSync(target).mode & 0o777) !== mode) chmodSync(target, mode);
  } catch {
    // Not ours to change (another user's folder we may still write): leave it as it is.
  }
}

/** The repository's root: relative paths in settings are taken from here, whatever the current folder. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Absolute path of a setting's value: relative paths are taken from `root` (the repository). */
export function resolveFrom(root: string, value: string): string {
  return value === ':memory:' || path.isAbsolute(value) ? value : path.resolve(root, value);
}
