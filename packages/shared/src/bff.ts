import { PERMISSIONS, roleSchema } from './roles.ts';
import { z } from './zod.ts';

// The BFF's own contract with the dashboard: its paths, the CSRF and session headers, the session
// (GET /auth/me). Roles, the proxy's allow-list, sign-in and users, and the send journal each have
// a module of their own, re-exported here: a page loads only the parts it uses.

export * from './proxy-routes.ts';
export * from './roles.ts';
export * from './send-history.ts';
export * from './users.ts';

export const BFF_PATHS = {
  login: '/auth/login',
  logout: '/auth/logout',
  me: '/auth/me',
  /** The signed-in user's own password (POST, the current one required). */
  password: '/auth/password',
  sends: '/bff/sends',
  users: '/bff/users',
  locations: '/bff/locations',
  overview: '/bff/overview',
  settings: '/bff/settings',
  bulkSends: '/bff/bulk-sends',
  healthz: '/healthz',
  readyz: '/readyz',
  metrics: '/metrics',
} as const;

/**
 * CSRF for the BFF's own state-changing routes: a custom header a cross-site page cannot send
 * without a CORS preflight (the convention of Duende's BFF), plus a same-origin Origin.
 */
export const CSRF_HEADER = 'x-csrf';
export const CSRF_HEADER_VALUE = '1';

/**
 * The BFF's own 401 (no session, or it expired) carries this header, so the dashboard can tell
 * "sign in again" apart from an upstream 401 ("the server's API key was refused": check the key).
 */
export const AUTH_REQUIRED_HEADER = 'x-auth-required';
export const AUTH_REQUIRED_SESSION = 'session';

/** One per user intent: a retry of the same submission reuses it, a new submission gets a new one. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_REPLAYED_HEADER = 'idempotency-replayed';

export const sessionUserSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** GET /auth/me (and the answer to a login). */
export const meSchema = /* @__PURE__ */ z.object({
  user: sessionUserSchema,
  permissions: z.array(z.enum(PERMISSIONS)),
  /** The business the server's API key belongs to, if the BFF knows it. */
  business: z.nullable(z.object({ name: z.string() })),
  settings: z.object({
    /** Window in which the send form warns about an earlier request to the same contact; 0: no cap. */
    frequencyCapDays: /* @__PURE__ */ z.number().check(z.int(), z.nonnegative()),
  }),
});
export type Me = z.infer<typeof meSchema>;
