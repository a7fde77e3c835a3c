import { z } from 'zod';

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
  z
    .string({ error: `${name} is required` })
    .trim()
    .transform((value) => (value.startsWith(`${prefix}/`) ? value.slice(prefix.length + 1) : value))
    .pipe(
      z.string().regex(/^[0-9]{1,30}$/, {
        error: `${name} must be the number Google gives it (or ${prefix}/<number>)`,
      }),
    );

export const REFRESH_TOKEN_MAX = 2048;

export const googleConnectBodySchema = z.strictObject({
  accountId: googleId('accountId', 'accounts'),
  locationId: googleId('locationId', 'locations'),
  refreshToken: z
    .string({ error: 'refreshToken is required' })
    .trim()
    .min(10, { error: 'refreshToken must be the refresh token Google issued' })
    .max(REFRESH_TOKEN_MAX, { error: `refreshToken must be at most ${REFRESH_TOKEN_MAX} characters` })
    .regex(/^[\x21-\x7e]+$/, { error: 'refreshToken must be one word of printable characters' }),
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
export const googleConnectionSchema = z.object({
  connection: z
    .object({
      accountId: z.string(),
      locationId: z.string(),
      state: z.enum(GOOGLE_STATES),
      /** Why it needs its owner, in Google's words. */
      problem: z.string().nullable(),
      connectedAt: z.string(),
      lastSyncAt: z.string().nullable(),
      /** The last sync's failure (a back-off is under way), in Google's words. */
      lastError: z.string().nullable(),
      nextSyncAt: z.string().nullable(),
      reviews: z.number().int().nonnegative(),
    })
    .nullable(),
});
export type GoogleConnection = z.infer<typeof googleConnectionSchema>;

/** The dashboard's own address for it (owners only, like the rest of Settings). */
export const BFF_GOOGLE_PATH = '/bff/settings/google';
