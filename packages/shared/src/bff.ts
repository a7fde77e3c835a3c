import { pageOf, pagingParams } from './paging.ts';
import { REQUEST_ENDPOINTS } from './requests.ts';
import { ENDPOINTS } from './scopes.ts';
import { z } from './zod.ts';

// The BFF's own contract with the dashboard: roles, login, the send journal, users.

export const ROLES = ['owner', 'manager', 'staff'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` });

export const PERMISSIONS = [
  'reviews:read',
  'analytics:read',
  'requests:send',
  'sends:read',
  'users:manage',
  'settings:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** owner — everything and user management; manager — reviews, analytics, send; staff — send and reviews. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  manager: ['reviews:read', 'analytics:read', 'requests:send', 'sends:read'],
  staff: ['reviews:read', 'requests:send', 'sends:read'],
};

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/**
 * The upstream calls the BFF forwards: the three operations, and the extension's reads of sent
 * requests (an upstream without them answers 404, and the dashboard keeps its journal's view).
 */
export const PROXIED_ENDPOINTS = {
  ...ENDPOINTS,
  requests: REQUEST_ENDPOINTS.list,
  request: REQUEST_ENDPOINTS.one,
} as const;
export type ProxiedEndpoint = keyof typeof PROXIED_ENDPOINTS;

/** The only upstream calls the BFF forwards, at the same paths, with the permission each needs. */
export const PROXY_ROUTES = [
  { endpoint: 'send', permission: 'requests:send' },
  { endpoint: 'reviews', permission: 'reviews:read' },
  { endpoint: 'analytics', permission: 'analytics:read' },
  { endpoint: 'requests', permission: 'sends:read' },
  { endpoint: 'request', permission: 'sends:read' },
] as const satisfies readonly { endpoint: ProxiedEndpoint; permission: Permission }[];

/** The allow-listed route of a method and path (`:id` stands for one path segment). */
export function proxyRoute(method: string, path: string) {
  return PROXY_ROUTES.find((r) => {
    const endpoint = PROXIED_ENDPOINTS[r.endpoint];
    return endpoint.method === method && pathMatches(endpoint.path, path);
  });
}

/** Whether `path` is the route `pattern`, whose `:name` segments match one non-empty segment. */
export function pathMatches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  return (
    want.length === got.length &&
    want.every((part, i) => (part.startsWith(':') ? got[i] !== '' : part === got[i]))
  );
}

export const BFF_PATHS = {
  login: '/auth/login',
  logout: '/auth/logout',
  me: '/auth/me',
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
export const idempotencyKeySchema = z.uuid({ error: 'Idempotency-Key must be a UUID' });

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

export const loginBodySchema = z.strictObject({
  email: z
    .string({ error: 'email is required' })
    .check(z.trim(), z.minLength(1, { error: 'email is required' }), z.maxLength(320), z.toLowerCase()),
  password: z
    .string({ error: 'password is required' })
    .check(z.minLength(1, { error: 'password is required' }), z.maxLength(PASSWORD_MAX)),
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const sessionUserSchema = z.object({ id: z.string(), email: z.string(), role: roleSchema });
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** GET /auth/me (and the answer to a login). */
export const meSchema = z.object({
  user: sessionUserSchema,
  permissions: z.array(z.enum(PERMISSIONS)),
  /** The business the server's API key belongs to, if the BFF knows it. */
  business: z.nullable(z.object({ name: z.string() })),
  settings: z.object({
    /** Window in which the send form warns about an earlier request to the same contact; 0: no cap. */
    frequencyCapDays: z.number().check(z.int(), z.nonnegative()),
  }),
});
export type Me = z.infer<typeof meSchema>;

/**
 * Outcome of a send as the BFF journal knows it:
 * in_flight — forwarded, no answer yet; sent — accepted by the upstream; warning — accepted with
 * a delivery warning; failed — refused or every delivery failed (nothing went out); unknown —
 * timeout or connection lost after the request left: a request may have been sent.
 */
export const SEND_OUTCOMES = ['in_flight', 'sent', 'warning', 'failed', 'unknown'] as const;
export type SendOutcome = (typeof SEND_OUTCOMES)[number];

export const sendHistoryQuerySchema = z.strictObject({
  ...pagingParams(),
  /** A phone number (any format the send form accepts) or an email address; matched after normalising. */
  contact: z.optional(
    z.string({ error: 'contact must be given once' }).check(z.trim(), z.minLength(1), z.maxLength(320)),
  ),
});
export type SendHistoryQuery = z.output<typeof sendHistoryQuerySchema>;

/** Who a send went to, as the dashboard lists it: the customer's name and the masked contact. */
export const recipientFields = {
  customerName: z.nullable(z.string()),
  /** Masked phone and/or email, e.g. "+1 ••• ••• 2671", "a•••@example.com". */
  contact: z.string(),
};

export const sendHistoryEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  finishedAt: z.nullable(z.string()),
  sentBy: z.string(),
  channel: z.string(),
  ...recipientFields,
  outcome: z.enum(SEND_OUTCOMES),
  httpStatus: z.nullable(z.number().check(z.int())),
  requestId: z.nullable(z.string()),
  status: z.nullable(z.string()),
  reviewLink: z.nullable(z.string()),
  warning: z.nullable(z.string()),
  error: z.nullable(z.string()),
});
export type SendHistoryEntry = z.infer<typeof sendHistoryEntrySchema>;

export const sendHistorySchema = pageOf('sends', sendHistoryEntrySchema);
export type SendHistory = z.infer<typeof sendHistorySchema>;

/** Honest words for each outcome, for badges and the result panel. */
export const SEND_OUTCOME_MEANINGS: Record<SendOutcome, string> = {
  in_flight: 'Being sent: no answer from the service yet.',
  sent: 'Accepted for delivery. Not a delivery receipt, and not a review.',
  warning: 'Accepted, but a delivery failed: read the warning.',
  failed: 'Not sent: the service refused the request or every delivery failed.',
  unknown:
    'Outcome unknown: the connection was lost after the request left, so a request may have been sent. Check before sending again.',
};

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: z.string(),
  lastLoginAt: z.nullable(z.string()),
});
export type User = z.infer<typeof userSchema>;

const passwordSchema = z
  .string({ error: 'password is required' })
  .check(
    z.minLength(PASSWORD_MIN, { error: `password must be at least ${PASSWORD_MIN} characters` }),
    z.maxLength(PASSWORD_MAX, { error: `password must be at most ${PASSWORD_MAX} characters` }),
  );

export const createUserSchema = z.strictObject({
  email: z.email({ error: 'email must be a valid email address' }).check(z.maxLength(320), z.toLowerCase()),
  role: roleSchema,
  password: passwordSchema,
});
export const updateUserSchema = z
  .strictObject({ role: z.optional(roleSchema), password: z.optional(passwordSchema) })
  .check(
    z.refine((v) => v.role !== undefined || v.password !== undefined, {
      error: 'Nothing to change: give role or password.',
    }),
  );
export { passwordSchema };
