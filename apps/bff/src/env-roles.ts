import * as setting from '@review-desk/server/config';
import type { RolePolicy } from '@review-desk/shared';

// What a deployment may change about the roles (packages/shared bff.ts, permissionsOf): part of
// the BFF's configuration table (env.ts).

export const ROLE_CONFIG = setting.defineConfig({
  STAFF_MAY_REPLY: {
    type: setting.bool(),
    default: 'false',
    description:
      '`true` lets staff answer reviews (reply, ignore, reopen) like owners and managers; by default staff read them only.',
  },
});

export function rolePolicyOf(env: setting.ConfigValues<typeof ROLE_CONFIG>): RolePolicy {
  return { staffMayReply: env.STAFF_MAY_REPLY };
}
