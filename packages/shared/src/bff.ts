import { z } from 'zod';
import { pageOf, pagingParams } from './paging.ts';
import { REQUEST_ENDPOINTS } from './requests.ts';
import { REVIEW_ENDPOINTS } from './review-reply.ts';
import { ENDPOINTS } from './scopes.ts';
import { DAY_MS } from './time.ts';

// The BFF's own contract with the dashboard: roles, login, the send journal, users.

export const ROLES = ['owner', 'manager', 'staff'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES, { error: `Role must be one of ${ROLES.join(', ')}` });

export const PERMISSIONS = [
  'reviews:read',
  'reviews:reply',
  'analytics:read',
  'requests:send',
  'sends:read',
  'users:manage',
  'settings:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * owner — everything and user management; manager — reviews (reading and answering), analytics,
 * send; staff — send and read reviews.
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  manager: ['reviews:read', 'reviews:reply', 'analytics:read', 'requests:send', 'sends:read'],
  staff: ['reviews:read', 'requests:send', 'sends:read'],
};

/** What a deployment of the dashboard may change about the roles (the BFF's STAFF_MAY_REPLY). */
export type RolePolicy = { staffMayReply: boolean };
export const DEFAULT_ROLE_POLICY: RolePolicy = { staffMayReply: false };

/** A role's permissions under the deployment's policy: staff answer reviews only when it says so. */
export function permissionsOf(role: Role, policy: RolePolicy = DEFAULT_ROLE_POLICY): Permission[] {
  const granted = [...ROLE_PERMISSIONS[role]];
  if (role === 'staff' && policy.staffMayReply) granted.splice(1, 0, 'reviews:reply');
  return granted;
}

export function can(role: Role, permission: Permission, policy: RolePolicy = DEFAULT_ROLE_POLICY): boolean {
  return permissionsOf(role, policy).includes(permission);
}

/**
 * The upstream calls the BFF forwards: the three operations, the extension's reads of sent
 * requests (an upstream without them answers 404, and the dashboard keeps its journal's view),
 * and its answering of reviews (one review, its reply, its status).
 */
export const PROXIED_ENDPOINTS = {
  ...ENDPOINTS,
  requests: REQUEST_ENDPOINTS.list,
  request: REQUEST_ENDPOINTS.one,
  review: REVIEW_ENDPOINTS.one,
  reviewStatus: REVIEW_ENDPOINTS.status,
  reviewReply: REVIEW_ENDPOINTS.reply,
  reviewWithdraw: REVIEW_ENDPOINTS.withdraw,
} as const;
export type ProxiedEndpoint = keyof typeof PROXIED_ENDPOINTS;

/** The only upstream calls the BFF forwards, at the same paths, with the permission each needs. */
export const PROXY_ROUTES = [
  { endpoint: 'send', permission: 'requests:send' },
  { endpoint: 'reviews', permission: 'reviews:read' },
  { endpoint: 'analytics', permission: 'analytics:read' },
  { endpoint: 'requests', permission: 'sends:read' },
  { endpoint: 'request', permission: 'sends:read' },
  { endpoint: 'review', permission: 'reviews:read' },
  { endpoint: 'reviewStatus', permission: 'reviews:reply' },
  { endpoint: 'reviewReply', permission: 'reviews:reply' },
  { endpoint: 'reviewWithdraw', permission: 'reviews:reply' },
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
export const idempotencyKeySchema = z.uuid({ error: 'Idempotency-Key must be a UUID' });

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

export const loginBodySchema = z.strictObject({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, { error: 'Email is required' })
    .max(320)
    .toLowerCase(),
  password: z
    .string({ error: 'Password is required' })
    .min(1, { error: 'Password is required' })
    .max(PASSWORD_MAX),
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const sessionUserSchema = z.object({ id: z.string(), email: z.string(), role: roleSchema });
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** GET /auth/me (and the answer to a login). */
export const meSchema = z.object({
  user: sessionUserSchema,
  permissions: z.array(z.enum(PERMISSIONS)),
  /** The business the server's API key belongs to, if the BFF knows it. */
  business: z.object({ name: z.string() }).nullable(),
  settings: z.object({
    /** Window in which the send form warns about an earlier request to the same contact; 0: no cap. */
    frequencyCapDays: z.number().int().nonnegative(),
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
  contact: z
    .string({ error: 'Contact must be given once' })
    .trim()
    .min(1, { error: 'Contact must not be empty' })
    .max(320, { error: 'Contact must be at most 320 characters' })
    .optional(),
  /** Where a phone number written without + is from (ISO 3166 code, e.g. US): the searcher's country. */
  country: z
    .string({ error: 'Country must be given once' })
    .regex(/^[A-Z]{2}$/, { error: 'Country must be a two-letter country code, e.g. US' })
    .optional(),
});
export type SendHistoryQuery = z.output<typeof sendHistoryQuerySchema>;

/** Who a send went to, as the dashboard lists it: the customer's name and the masked contact. */
export const recipientFields = {
  customerName: z.string().nullable(),
  /** Masked phone and/or email, e.g. "+1 ••• ••• 2671", "a•••@example.com". */
  contact: z.string(),
};

export const sendHistoryEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  sentBy: z.string(),
  channel: z.string(),
  ...recipientFields,
  outcome: z.enum(SEND_OUTCOMES),
  httpStatus: z.number().int().nullable(),
  requestId: z.string().nullable(),
  status: z.string().nullable(),
  reviewLink: z.string().nullable(),
  warning: z.string().nullable(),
  error: z.string().nullable(),
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

/**
 * Outcomes the service counts against its frequency cap: it accepted the request. A refused or
 * failed send reached nobody; an unknown one may or may not have.
 */
export const CAPPED_OUTCOMES: readonly SendOutcome[] = ['sent', 'warning'];

/**
 * When a contact sent a request at `sentAt` may be asked again: the service refuses another
 * request to them for `capDays` days (docs/api.md, "Frequency cap").
 */
export function askAgainFrom(sentAt: string, capDays: number): Date {
  return new Date(Date.parse(sentAt) + capDays * DAY_MS);
}

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

/** The password rule, its messages naming the field as its form labels it. */
const passwordRule = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .min(PASSWORD_MIN, { error: `${label} must be at least ${PASSWORD_MIN} characters` })
    .max(PASSWORD_MAX, { error: `${label} must be at most ${PASSWORD_MAX} characters` });
const passwordSchema = passwordRule('Password');

/**
 * POST /auth/password: a user changes their own password, the current one required (a session
 * left open on another computer is not enough to change it).
 */
export const changeOwnPasswordSchema = z
  .strictObject({
    currentPassword: z
      .string({ error: 'Current password is required' })
      .min(1, { error: 'Current password is required' })
      .max(PASSWORD_MAX, { error: `Current password must be at most ${PASSWORD_MAX} characters` }),
    newPassword: passwordRule('New password'),
  })
  .refine((body) => body.currentPassword !== body.newPassword, {
    error: 'New password must differ from the current one',
    path: ['newPassword'],
  });
export type ChangeOwnPassword = z.input<typeof changeOwnPasswordSchema>;

export const createUserSchema = z.strictObject({
  email: z.email({ error: 'Email must be a valid email address' }).max(320).toLowerCase(),
  role: roleSchema,
  password: passwordSchema,
});
export const updateUserSchema = z
  .strictObject({ role: roleSchema.optional(), password: passwordSchema.optional() })
  .refine((v) => v.role !== undefined || v.password !== undefined, {
    error: 'Nothing to change: choose a role or a password.',
  });
export { passwordSchema };
