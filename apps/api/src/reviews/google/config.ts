import * as setting from '@review-desk/server/config';
import { REPO_ROOT, resolveFrom } from '@review-desk/server/files';
import { z } from 'zod';

// The variables of the Google Business Profile connection: part of the service's configuration
// table (env.ts), read here. Its tokens are sealed with the service's secrets key (webhooks/config.ts).

export const GOOGLE_VARIABLES = setting.defineConfig({
  GOOGLE_API_BASE: {
    type: setting.httpUrl(),
    default: 'https://mybusiness.googleapis.com',
    description:
      'Where Google’s Business Profile API (v4 reviews) is reached (tests and the demo point it at a local stand-in).',
  },
  GOOGLE_TOKEN_URL: {
    type: setting.httpUrl(),
    default: 'https://oauth2.googleapis.com/token',
    description: 'Google’s OAuth 2.0 token endpoint, where access tokens come from the refresh token.',
  },
  GOOGLE_CLIENT_ID: {
    type: z.string().min(1),
    description:
      'The OAuth client id the refresh tokens were issued to (Google Cloud console, Credentials). Without it no business can be connected.',
  },
  GOOGLE_CLIENT_SECRET: {
    type: z.string().min(1),
    description: 'That OAuth client’s secret.',
  },
  GOOGLE_SYNC_SECONDS: {
    type: setting.wholeNumber(10, 86_400),
    default: '900',
    description:
      'How often each connected location’s Google reviews are read (longer after failures: the back-off doubles per failure, at most an hour).',
  },
  GOOGLE_TIMEOUT_MS: {
    type: setting.wholeNumber(100, 120_000),
    default: '10000',
    description:
      'How long a call to Google may take. A reply whose answer did not come in time is `unknown`, never posted again by itself.',
  },
});

type GoogleValues = setting.ConfigValues<typeof GOOGLE_VARIABLES>;

export type GoogleConfig = {
  apiBase: string;
  tokenUrl: string;
  /** Null without GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: no business can be connected. */
  client: { id: string; secret: string } | null;
  syncMs: number;
  timeoutMs: number;
  secrets: { key: string | undefined; file: string };
};

/** `e` also holds the secrets key's variables (webhooks/config.ts): the tokens are sealed with it. */
export function googleConfig(
  e: GoogleValues & { SECRETS_KEY: string | undefined; SECRETS_KEY_FILE: string },
): GoogleConfig {
  if (e.GOOGLE_CLIENT_ID && !e.GOOGLE_CLIENT_SECRET)
    throw setting.configError('GOOGLE_CLIENT_SECRET', 'is required with GOOGLE_CLIENT_ID');
  if (e.GOOGLE_CLIENT_SECRET && !e.GOOGLE_CLIENT_ID)
    throw setting.configError('GOOGLE_CLIENT_ID', 'is required with GOOGLE_CLIENT_SECRET');
  return {
    apiBase: e.GOOGLE_API_BASE.toString().replace(/\/+$/, ''),
    tokenUrl: e.GOOGLE_TOKEN_URL.toString(),
    client:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { id: e.GOOGLE_CLIENT_ID, secret: e.GOOGLE_CLIENT_SECRET }
        : null,
    syncMs: e.GOOGLE_SYNC_SECONDS * 1000,
    timeoutMs: e.GOOGLE_TIMEOUT_MS,
    secrets: { key: e.SECRETS_KEY, file: resolveFrom(REPO_ROOT, e.SECRETS_KEY_FILE) },
  };
}
