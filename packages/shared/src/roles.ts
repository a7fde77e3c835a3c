import { z } from './zod.ts';

// Who may do what on the dashboard: the three roles and the permission each holds. The BFF
// enforces it on every route; the dashboard only mirrors it (what a page offers, the navigation).

export const ROLES = ['owner', 'manager', 'staff'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = /* @__PURE__ */ z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` });

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
