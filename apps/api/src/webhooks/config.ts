import * as setting from '@review-desk/server/config';
import { REPO_ROOT, resolveFrom } from '@review-desk/server/files';
import { parseSecretsKey } from '@review-desk/server/secrets';
import { z } from 'zod';

// The variables of events out and of the secrets key that seals what the service keeps for
// others (webhook secrets, point-of-sale keys): part of the service's table (env.ts), read here.

export const WEBHOOK_VARIABLES = setting.defineConfig({
  WEBHOOKS_ALLOW_PRIVATE: {
    type: setting.bool(),
    default: '0',
    description:
      '`1` lets webhooks reach private, loopback and link-local addresses (tests and the demo only). Refused with `NODE_ENV=production` or a real delivery provider.',
  },
  SECRETS_KEY: {
    type: z.string().refine((value) => parseSecretsKey(value) !== null, {
      error: 'must be 32 bytes as 64 hex digits or base64',
    }),
    shown: '`SECRETS_KEY_FILE`',
    description:
      'The 32-byte key (64 hex digits or base64) that seals the secrets the service keeps for others in the database (webhook signing secrets, Square keys, Google tokens). Unset: read from `SECRETS_KEY_FILE`.',
  },
  SECRETS_KEY_FILE: {
    type: setting.text(),
    default: 'data/api-secrets-key',
    description:
      'File holding the secrets key; made (0600) with a new random key when missing. Keep it out of the database’s backups, or a copy of both opens the secrets.',
  },
});

type WebhookValues = setting.ConfigValues<typeof WEBHOOK_VARIABLES>;

export type WebhooksConfig = { allowPrivate: boolean };
export type SecretsConfig = { key: string | undefined; file: string };

/**
 * `providers`: each delivery variable and its value; one other than `outbox` reaches customers,
 * and private addresses are for tests and the demo, never beside it.
 */
export function webhooksConfig(
  e: WebhookValues & { NODE_ENV?: string | undefined },
  providers: Record<string, string>,
): { webhooks: WebhooksConfig; secrets: SecretsConfig } {
  const real = Object.entries(providers).find(([, value]) => value !== 'outbox');
  const realProvider = real ? `${real[0]}=${real[1]}` : null;
  if (e.WEBHOOKS_ALLOW_PRIVATE && e.NODE_ENV === 'production')
    throw setting.configError('WEBHOOKS_ALLOW_PRIVATE', 'must be off when NODE_ENV=production');
  if (e.WEBHOOKS_ALLOW_PRIVATE && realProvider)
    throw setting.configError(
      'WEBHOOKS_ALLOW_PRIVATE',
      `must be off with a real delivery provider (${realProvider}): it is for tests and the demo`,
    );
  return {
    webhooks: { allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE },
    secrets: { key: e.SECRETS_KEY, file: resolveFrom(REPO_ROOT, e.SECRETS_KEY_FILE) },
  };
}
