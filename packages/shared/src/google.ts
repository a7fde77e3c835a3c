import { z } from './zod.ts';

// A business's Google Business Profile location, connected so its Google reviews are synced and
// answered from the dashboard (docs/api.md, "Google Business Profile"): an extension of the API,
// read and changed with the settings scopes. The refresh token goes in and never comes out.

export const GOOGLE_ENDPOINT = {
  path: '/api/v1/integrations/google',
  read: 'settings:read',
  write: 'settings:write',
} as const;

/** Google's ids are digits; `accounts/123` and `locations/456` (their resource names) are accepted too. */
const googleId = (name: string, prefix: string) =>
  z.pipe(
    z.pipe(
      z.string({ error: `${name} is required` }).check(z.trim()),
      z.transform((value) => (value.startsWith(`${prefix}/`) ? value.slice(prefix.length + 1) : value)),
    ),
    z.string().check(
      z.regex(/^[0-9]{1,30}$/, {
        error: `${name} must be the number Google gives it (or ${prefix}/<number>)`,
      }),
    ),
  );

export const REFRESH_TOKEN_MAX = 2048;

export const googleConnectBodySchema = /* @__PURE__ */ z.strictObject({
  accountId: googleId('accountId', 'accounts'),
  locationId: googleId('locationId', 'locations'),
  refreshToken: z.string({ error: 'refreshToken is required' }).check(
    z.trim(),
    z.minLength(10, { error: 'refreshToken must be the refresh token Google issued' }),
    z.maxLength(REFRESH_TOKEN_MAX, {
      error: `refreshToken must be at most ${REFRESH_TOKEN_MAX} characters`,
    }),
    z.regex(/^[\x21-\x7e]+$/, { error: 'refreshToken must be one word of printable characters' }),
  ),
});
export type GoogleConnectBody = z.output<typeof googleConnectBodySchema>;

/**
 * connected — synced every GOOGLE_SYNC_SECONDS; needs_owner — Google refused the token or the
 * location (401/403, or the refresh token was revoked): nothing is synced or posted until an
 * owner connects it again.
 */
export const GOOGLE_STATES = ['connected', 'needs_owner'] as const;
export type GoogleState = (typeof GOOGLE_STATES)[number];

/** GET/PUT /api/v1/integrations/google: the connection without its token (null: not connected). */
export const googleConnectionSchema = /* @__PURE__ */ z.object({
  connection: z.nullable(
    z.object({
      accountId: z.string(),
      locationId: z.string(),
      state: z.enum(GOOGLE_STATES),
      /** Why it needs its owner, in Google's words. */
      problem: z.nullable(z.string()),
      connectedAt: z.string(),
      lastSyncAt: z.nullable(z.string()),
      /** The last sync's failure (a back-off is under way), in Google's words. */
      lastError: z.nullable(z.string()),
      nextSyncAt: z.nullable(z.string()),
      reviews: z.number().check(z.int(), z.nonnegative()),
    }),
  ),
});
export type GoogleConnection = z.infer<typeof googleConnectionSchema>;

/** The dashboard's own address for it (owners only, like the rest of Settings). */
export const BFF_GOOGLE_PATH = '/bff/settings/google';
