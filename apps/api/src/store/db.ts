import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { ensurePrivateDir, makePrivate, sqliteFiles } from '@review-desk/server/files';
import { StartupError } from '@review-desk/server/startup-error';
import { emailContactKey } from '@review-desk/shared/contact';

// SQLite through node:sqlite: one connection per process, WAL so the CLI can write while the
// server reads and writes the same file, numbered SQL migrations applied at open.

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', 'sqlite');

export type Db = DatabaseSync & { transaction<T>(fn: () => T): T };

export function openDatabase(file: string): Db {
  const memory = file === ':memory:';
  // Key hashes and customers' contacts: a folder and files of this user's only.
  if (!memory) ensurePrivateDir(path.dirname(file), 'DATABASE_PATH');
  const db = new DatabaseSync(file, { timeout: 5000, enableForeignKeyConstraints: true });
  if (!memory) makePrivate(file);
  // WAL: readers never block the writer; NORMAL sync is durable across application crashes
  // (an OS crash may lose the last commits, never corrupt the file).
  if (!memory) db.exec('PRAGMA journal_mode = WAL');
  // The WAL and shared-memory files exist now; SQLite gives them the main file's mode, but an
  // older version may have left them readable by others.
  if (!memory) for (const companion of sqliteFiles(file)) makePrivate(companion);
  db.exec(`
    PRAGMA synchronous = NORMAL;
    PRAGMA foreign_keys = ON;
    PRAGMA busy_timeout = 5000;
    PRAGMA temp_store = MEMORY;
    PRAGMA cache_size = -65536;
    PRAGMA mmap_size = 268435456;
  `);
  // Checkpoint every ~40 MB of WAL rather than 4 MB: hot pages (roll-ups, table tails) are
  // written back once per checkpoint instead of ten times, about a fifth less work per send.
  if (file !== ':memory:') db.exec('PRAGMA wal_autocheckpoint = 10000');
  // For the migration that keys stored addresses (002); the running code computes keys itself.
  db.function('email_contact_key', { deterministic: true }, (email) =>
    typeof email === 'string' ? emailContactKey(email) : null,
  );
  const wrapped = Object.assign(db, { transaction: makeTransaction(db) });
  try {
    migrate(wrapped, file);
  } catch (error) {
    db.close();
    throw error;
  }
  return wrapped;
}

function makeTransaction(db: DatabaseSync) {
  let depth = 0;
  return function transaction<T>(fn: () => T): T {
    // Nested calls join the outer transaction: a domain operation composes store writes freely.
    if (depth > 0) return fn();
    // IMMEDIATE takes the write lock up front, so a read-then-write (frequency cap, allowance)
    // cannot interleave with another process's write and fail with SQLITE_BUSY half-way.
    db.exec('BEGIN IMMEDIATE');
    depth++;
    try {
      const result = fn();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    } finally {
      depth--;
    }
  };
}

export function migrationFiles(): { version: number; name: string; sql: string }[] {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}-[a-z0-9-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 3)),
      name: f,
      sql: readFileSync(path.join(MIGRATIONS_DIR, f), 'utf8'),
    }));
  // A version is applied once: a second file with the same number would be skipped silently.
  const seen = new Set<number>();
  for (const file of files) {
    if (seen.has(file.version))
      throw new Error(`two migrations numbered ${file.version}: renumber ${file.name}`);
    seen.add(file.version);
  }
  return files;
}

// The service's tables are component `api` of schema_migrations, the table every component on
// this file shares (packages/server/src/db/migrate.ts: the settings and scheduling tables are
// opened through the async database layer on the same file).
const COMPONENT = 'api';

function migrate(db: Db, file: string): void {
  const files = migrationFiles();
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      component TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL,
      PRIMARY KEY (component, version))`);
    const columns = db.prepare(`SELECT name FROM pragma_table_info('schema_migrations')`).all() as {
      name: string;
    }[];
    if (!columns.some((c) => c.name === 'component')) {
      // An older version kept (version, name, applied_at), all of them this service's.
      db.exec(`ALTER TABLE schema_migrations RENAME TO schema_migrations_old;
        CREATE TABLE schema_migrations (
          component TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL,
          PRIMARY KEY (component, version));
        INSERT INTO schema_migrations (component, version, name, applied_at)
          SELECT '${COMPONENT}', version, name, applied_at FROM schema_migrations_old;
        DROP TABLE schema_migrations_old;`);
    }
    const newest = Number(
      (
        db.prepare('SELECT MAX(version) AS v FROM schema_migrations WHERE component = ?').get(COMPONENT) as {
          v: number | null;
        }
      ).v ?? 0,
    );
    // Never run a database an unknown migration has changed: say so and stop.
    if (newest > files.length) {
      throw new StartupError(
        `The database ${file} (DATABASE_PATH) was written by a newer version of Review Desk ` +
          `(schema ${newest}, this version knows up to ${files.length}; ${COMPONENT} tables). ` +
          'Run that version or a newer one, or restore a backup made before the upgrade.',
        { variable: 'DATABASE_PATH' },
      );
    }
  });
  for (const migration of files) {
    // Checked inside the write lock: the server and a CLI started together apply each file once.
    db.transaction(() => {
      const done = db
        .prepare('SELECT 1 FROM schema_migrations WHERE component = ? AND version = ?')
        .get(COMPONENT, migration.version);
      if (done) return;
      db.exec(migration.sql);
      db.prepare(
        'INSERT INTO schema_migrations (component, version, name, applied_at) VALUES (?, ?, ?, ?)',
      ).run(COMPONENT, migration.version, migration.name, new Date().toISOString());
    });
  }
}

/**
 * Closes the connection. The server checkpoints the WAL into the main file on graceful shutdown;
 * a short-lived CLI leaves that to SQLite rather than wait on the server's readers.
 */
export function closeDatabase(db: Db, options: { checkpoint?: boolean } = {}): void {
  if (!db.isOpen) return;
  try {
    db.exec('PRAGMA optimize');
    if (options.checkpoint) db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } catch {
    // Another process may hold the file; closing is still safe.
  }
  db.close();
}
