import { z } from './zod.ts';

// Who may do what on the dashboard: the three roles and the permission each holds. The BFF
// enforces it on every route; the dashboard only mirrors it (what a page offers, the navigation).

export const ROLES = ['owner', 'manager', 'staff'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = /* @__PURE__ */ z.enum(ROLES, { error: `Role must be one of ${ROLES.join(', ')}` });

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
