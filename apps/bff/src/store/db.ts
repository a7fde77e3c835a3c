import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ensurePrivateDir, makePrivate, sqliteFiles } from '@review-desk/server/files';

// The BFF's own database: users, sessions, login throttling and the send journal. Several
// processes may open it at once (cluster workers, the CLI), so it runs in WAL mode with a busy
// timeout, and every claim is a single atomic statement.

const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'staff')),
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    last_login_at INTEGER
  ) STRICT;

  -- The cookie carries a random id; only its SHA-256 is stored, so a copy of the database
  -- does not hold usable sessions.
  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX sessions_user ON sessions(user_id);

  CREATE TABLE login_failures (
    bucket TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    window_start INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE sends (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    sent_by TEXT NOT NULL,
    idem_key TEXT,
    fingerprint TEXT NOT NULL,
    channel TEXT NOT NULL,
    customer_name TEXT,
    contact_masked TEXT NOT NULL,
    phone_hash TEXT,
    email_hash TEXT,
    outcome TEXT NOT NULL CHECK (outcome IN ('in_flight', 'sent', 'warning', 'failed', 'unknown')),
    http_status INTEGER,
    request_id TEXT,
    status TEXT,
    review_link TEXT,
    warning TEXT,
    error TEXT,
    response_type TEXT,
    response_body BLOB,
    owner_pid INTEGER,
    created_at INTEGER NOT NULL,
    finished_at INTEGER
  ) STRICT;
  -- The journal is keyed by user + idempotency key. The key is released (set to
  -- NULL) when its retention ends or when the attempt definitely sent nothing.
  CREATE UNIQUE INDEX sends_idem ON sends(user_id, idem_key) WHERE idem_key IS NOT NULL;
  CREATE INDEX sends_created ON sends(created_at DESC);
  CREATE INDEX sends_phone ON sends(phone_hash, created_at DESC) WHERE phone_hash IS NOT NULL;
  CREATE INDEX sends_email ON sends(email_hash, created_at DESC) WHERE email_hash IS NOT NULL;
  CREATE INDEX sends_in_flight ON sends(outcome) WHERE outcome = 'in_flight';
  `,
  `
  -- The login throttle counts failures; \`pending\` holds the password checks in flight (taken
  -- before the check, given back or turned into a failure after it), \`pending_at\` the last one.
  ALTER TABLE login_failures ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE login_failures ADD COLUMN pending_at INTEGER NOT NULL DEFAULT 0;
  `,
];

export type Db = DatabaseSync;

export function openDatabase(file: string): Db {
  const memory = file === ':memory:';
  // Password hashes, sessions and the contact secret: a folder and files of this user's only.
  if (!memory) ensurePrivateDir(path.dirname(file), 'BFF_DATABASE_PATH');
  const db = new DatabaseSync(file, { timeout: 5_000 });
  if (!memory) makePrivate(file);
  db.exec('PRAGMA journal_mode = WAL');
  // The WAL and shared-memory files exist now; SQLite gives them the main file's mode, but an
  // older version may have left them readable by others.
  if (!memory) for (const companion of sqliteFiles(file)) makePrivate(companion);
  // WAL + NORMAL: a commit survives a process crash; only an OS crash may lose the last ones.
  db.exec('PRAGMA synchronous = NORMAL');
  // Checkpoint every ~40 MB of WAL rather than every 4 MB: every send writes the journal twice
  // (claim, then outcome), and each checkpoint rewrites and syncs the same hot pages again.
  db.exec('PRAGMA wal_autocheckpoint = 10000');
  db.exec('PRAGMA foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  // BEGIN IMMEDIATE takes the write lock first, so two processes starting together migrate once.
  db.exec('BEGIN IMMEDIATE');
  try {
    const current = Number(
      (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version,
    );
    for (let version = current; version < MIGRATIONS.length; version++) {
      db.exec(MIGRATIONS[version] as string);
    }
    if (current < MIGRATIONS.length) db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
    const secret = db.prepare(`SELECT value FROM meta WHERE key = 'contact_hash_secret'`).get();
    if (!secret) {
      db.prepare(`INSERT INTO meta (key, value) VALUES ('contact_hash_secret', ?)`).run(
        randomBytes(32).toString('base64url'),
      );
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** Runs fn inside BEGIN IMMEDIATE … COMMIT (write lock taken up front: no upgrade deadlocks). */
export function transaction<T>(db: Db, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

export function metaValue(db: Db, key: string): string | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}
