import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDirs } from '../test-support/scratch.ts';
import { ensurePrivateDir, makePrivate, resolveFrom, sqliteFiles } from './files.ts';
import { StartupError } from './startup-error.ts';

const scratch = useScratchDirs('rd-files-');

const mode = (p: string) => statSync(p).mode & 0o777;

describe('private data files', () => {
  it('creates the data folder and its parents readable by the owner only', () => {
    const dir = path.join(scratch(), 'a', 'data');
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it('tightens a folder and files an older version left world-readable', () => {
    const dir = path.join(scratch(), 'data');
    ensurePrivateDir(dir);
    chmodSync(dir, 0o755);
    const db = path.join(dir, 'api.db');
    for (const file of sqliteFiles(db).slice(0, 3)) writeFileSync(file, '', { mode: 0o644 });
    ensurePrivateDir(dir);
    for (const file of sqliteFiles(db)) makePrivate(file);
    expect(mode(dir)).toBe(0o700);
    expect(sqliteFiles(db).slice(0, 3).map(mode)).toEqual([0o600, 0o600, 0o600]);
  });

  it('leaves a shared folder (sticky bit, like /tmp) as it is when a database sits directly in it', () => {
    const shared = path.join(scratch(), 'tmp');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    ensurePrivateDir(shared);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
  });

  it('refuses a data folder that is a file, naming the folder and the setting', () => {
    const file = path.join(scratch(), 'taken');
    writeFileSync(file, 'x');
    let error: unknown;
    try {
      ensurePrivateDir(path.join(file, 'data'), 'REVIEW_DESK_DATA_DIR');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StartupError);
    expect((error as StartupError).message).toContain(path.join(file, 'data'));
    expect((error as StartupError).variable).toBe('REVIEW_DESK_DATA_DIR');
  });

  it('resolves relative settings against the given root, leaving absolute ones and :memory:', () => {
    expect(resolveFrom('/repo', 'data/api.db')).toBe('/repo/data/api.db');
    expect(resolveFrom('/repo', '/var/lib/rd/api.db')).toBe('/var/lib/rd/api.db');
    expect(resolveFrom('/repo', ':memory:')).toBe(':memory:');
  });
});
