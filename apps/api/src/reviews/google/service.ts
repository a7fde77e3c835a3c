import { isoTime } from '@review-desk/server/db/rows';
import type { Queryable } from '@review-desk/server/db/types';
import type { Logger } from '@review-desk/server/log';
import { createSecretBox, loadSecretsKey, type SecretBox } from '@review-desk/server/secrets';
import type { GoogleConnection } from '@review-desk/shared';
import { createGoogleClient, type GoogleCall, type GoogleClient } from './client.ts';
import type { GoogleConfig } from './config.ts';
import { type ConnectionRow, type ConnectionStore, connectionStore } from './connections.ts';

// A business's Google connection in use: access tokens from its refresh token, renewed before
// they expire (TOKEN_MARGIN_MS) and kept sealed so every process shares them; a call Google
// refuses with 401 gets one fresh token and one more try; 401/403 (or a refresh token Google
// refuses) marks the connection as needing its owner, and nothing more is called for it.

/** An access token is renewed when it has less than this left. */
export const TOKEN_MARGIN_MS = 5 * 60_000;

export type NotConnected = { kind: 'not_connected'; message: string };

export type GoogleService = ReturnType<typeof createGoogle>;

export function createGoogle(deps: {
  db: Queryable;
  config: GoogleConfig;
  logger: Logger;
  now: () => number;
}) {
  const { config, logger, now } = deps;
  // The secrets key is read (or made) on first use: a service that never connects Google needs none.
  let box: SecretBox | null = null;
  const secrets = () => {
    box ??= createSecretBox(loadSecretsKey(config.secrets, { create: true, variable: 'SECRETS_KEY' })!);
    return box;
  };
  const client: GoogleClient = createGoogleClient(config);
  const connections: ConnectionStore = connectionStore(deps.db, secrets);

  async function refuse(row: ConnectionRow, message: string): Promise<void> {
    await connections.needsOwner(row, message, now());
    logger.warn({ business: row.business_id }, 'Google refused the connection: it needs its owner');
  }

  /** A token good for a while yet: the stored one, or a fresh one (then stored). */
  async function access(row: ConnectionRow, fresh: boolean): Promise<GoogleCall<string>> {
    const at = now();
    const stored = fresh ? null : connections.accessToken(row, at + TOKEN_MARGIN_MS);
    if (stored) return { kind: 'ok', value: stored };
    const issued = await client.token(connections.refreshToken(row), at);
    if (issued.kind !== 'ok') {
      if (issued.kind === 'refused' && issued.auth)
        await refuse(row, `Google refused the refresh token (${issued.message}).`);
      return issued;
    }
    await connections.saveAccess(row, issued.value.token, issued.value.expiresAt, now());
    return { kind: 'ok', value: issued.value.token };
  }

  return {
    client,
    connections,
    configured: client.configured,

    /**
     * Runs a call with the connection's token. A 401 with a stored token gets one fresh token and
     * one more try; a 401/403 after that marks the connection as needing its owner.
     */
    async withAccess<T>(
      row: ConnectionRow,
      call: (token: string) => Promise<GoogleCall<T>>,
    ): Promise<GoogleCall<T>> {
      let token = await access(row, false);
      if (token.kind !== 'ok') return token;
      let result = await call(token.value);
      if (result.kind === 'refused' && result.status === 401) {
        token = await access(row, true);
        if (token.kind !== 'ok') return token;
        result = await call(token.value);
      }
      if (result.kind === 'refused' && result.auth)
        await refuse(row, `Google refused access to the location (${result.status}: ${result.message}).`);
      return result;
    },

    /** The business's connection, usable: connected and a client configured. */
    async usable(businessId: number): Promise<ConnectionRow | NotConnected> {
      const row = await connections.get(businessId);
      if (!row) return { kind: 'not_connected', message: 'This business is not connected to Google.' };
      if (!client.configured)
        return {
          kind: 'not_connected',
          message: 'The service has no Google OAuth client (GOOGLE_CLIENT_ID).',
        };
      if (row.state !== 'connected')
        return {
          kind: 'not_connected',
          message: `The Google connection needs its owner: ${row.problem ?? 'reconnect it'}`,
        };
      return row;
    },

    /** What the Settings page shows: never a token. */
    async describe(businessId: number, nextSyncAt: number | null): Promise<GoogleConnection> {
      const row = await connections.get(businessId);
      if (!row) return { connection: null };
      return {
        connection: {
          accountId: row.account_id,
          locationId: row.location_id,
          state: row.state,
          problem: row.problem,
          connectedAt: isoTime(row.created_at),
          lastSyncAt: isoTime(row.last_sync_at),
          lastError: row.last_error,
          nextSyncAt: row.state === 'connected' ? isoTime(nextSyncAt) : null,
          reviews: await connections.reviewCount(businessId),
        },
      };
    },
  };
}
