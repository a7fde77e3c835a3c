import * as setting from '@review-desk/server/config';
import { REPO_ROOT, resolveFrom } from '@review-desk/server/files';
import { z } from 'zod';
import { parseSecretsKey } from './locations/secrets.ts';

// Where the BFF's data lives (its database and the key that seals the locations' API keys): part
// of the BFF's configuration table (env.ts), and all the command line needs, so the CLI runs
// without an upstream configured.

export const STORAGE_CONFIG = setting.defineConfig({
  BFF_DATABASE_PATH: {
    type: setting.text(),
    default: 'data/bff.db',
    description:
      'The BFF’s SQLite database (users, sessions, throttling, journal, locations) when `BFF_DATABASE_URL` is not set. Its folder is created readable by this user only (0700), the files 0600.',
  },
  BFF_DATABASE_URL: {
    type: setting.postgresUrl(),
    shown: 'none (SQLite)',
    description:
      'A `postgres://` URL: the BFF keeps everything in PostgreSQL instead, shared by every replica (docs/deploy.md). Never logged with its password.',
  },
  BFF_DATABASE_POOL_SIZE: {
    type: setting.wholeNumber(1, 100),
    default: '10',
    description: 'PostgreSQL connections per BFF process (each cluster worker has its own pool).',
  },
  BFF_SECRETS_KEY: {
    type: z.string().refine((value) => parseSecretsKey(value) !== null, {
      error: 'must be 32 bytes written as 64 hex digits or base64',
    }),
    shown: 'none (the file below)',
    description:
      'Seals the locations’ API keys in the database (AES-256-GCM): 32 bytes as 64 hex digits or base64. Keep it out of the database’s backups.',
  },
  BFF_SECRETS_KEY_FILE: {
    type: setting.text(),
    default: 'data/bff-secrets.key',
    description:
      'Read when `BFF_SECRETS_KEY` is unset; made with a random key (mode 0600) when the first location is added.',
  },
});

type StorageValues = setting.ConfigValues<typeof STORAGE_CONFIG>;

/** PostgreSQL when BFF_DATABASE_URL is set, else the SQLite file; and the secrets key's source. */
export function loadStorageConfig(env: StorageValues) {
  const databasePath = resolveFrom(REPO_ROOT, env.BFF_DATABASE_PATH);
  return {
    /** The SQLite file (also what `migrate-to-postgres` copies from). */
    databasePath,
    /** What the stores open: the PostgreSQL URL, or the SQLite file's absolute path. */
    databaseUrl: env.BFF_DATABASE_URL ?? databasePath,
    databasePoolSize: env.BFF_DATABASE_POOL_SIZE,
    secrets: { key: env.BFF_SECRETS_KEY, file: resolveFrom(REPO_ROOT, env.BFF_SECRETS_KEY_FILE) },
  };
}
export type StorageConfig = ReturnType<typeof loadStorageConfig>;

/** The CLI's configuration: the database and the secrets key only. */
export function loadCliConfig(source: Record<string, string | undefined> = process.env): StorageConfig {
  return loadStorageConfig(setting.parseEnv(STORAGE_CONFIG, source).values);
}
