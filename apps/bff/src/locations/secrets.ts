import { loadSecretsKey as load, type SecretsKeySource } from '@review-desk/server/secrets';

// Location keys at rest: sealed with the BFF's secrets key (packages/server secrets.ts), which
// lives outside the database (BFF_SECRETS_KEY, or the file BFF_SECRETS_KEY_FILE), so a copy of the
// database alone holds no usable API key. Each sealed key binds its location's slug: copied onto
// another row, it does not open.

export {
  createSecretBox,
  parseSecretsKey,
  refusingBox,
  type SecretBox,
  type SecretsKeySource,
} from '@review-desk/server/secrets';

/** The key from BFF_SECRETS_KEY, else from its file; `create` makes a missing file. */
export function loadSecretsKey(source: SecretsKeySource, options: { create: boolean }): Uint8Array | null {
  return load(source, { ...options, variable: 'BFF_SECRETS_KEY' });
}
