import { AppError } from '@review-desk/server/errors';
import {
  AUTH_REQUIRED_HEADER,
  AUTH_REQUIRED_SESSION,
  can,
  DEFAULT_ROLE_POLICY,
  type Permission,
  type RolePolicy,
} from '@review-desk/shared';
import type { Gate } from '../http/gate.ts';
import { type CookieSettings, clearSessionCookies, readSessionToken } from './cookies.ts';
import type { Lookup, SessionStore } from './sessions.ts';

// The two gates every protected route passes: a live session (401 with X-Auth-Required: session,
// so the dashboard says "sign in again" rather than blaming the API key), then a role that has
// the route's permission (403; the upstream is never called).

const SIGN_IN = { headers: { [AUTH_REQUIRED_HEADER]: AUTH_REQUIRED_SESSION } };
const NO_SESSION = new AppError('session_missing', undefined, SIGN_IN);
const EXPIRED = new AppError('session_expired', undefined, SIGN_IN);

/**
 * Gate: the session named by the cookie. A session this process has cached and fresh is taken
 * from memory (no promise, no query); any other is looked up in the database.
 */
export function session(sessions: SessionStore, cookies: CookieSettings): Gate {
  return (req, res) => {
    const token = readSessionToken(req);
    req.ctx.token = token;
    if (token === null) return NO_SESSION;
    const cached = sessions.peek(token);
    if (cached !== null) {
      req.ctx.session = cached;
      return null;
    }
    const settle = (found: Lookup) => {
      if (found === null) return NO_SESSION;
      if ('expired' in found) {
        clearSessionCookies(req, res, cookies);
        return EXPIRED;
      }
      req.ctx.session = found.session;
      return null;
    };
    return sessions.lookup(token).then(settle);
  };
}

/** Gate: the signed-in user's role has `permission` under the deployment's policy (after `session`). */
export function permission(permission: Permission, policy: RolePolicy = DEFAULT_ROLE_POLICY): Gate {
  return (req) => {
    const role = req.ctx.session?.user.role;
    if (role !== undefined && can(role, permission, policy)) return null;
    return new AppError(
      'role_forbidden',
      `Your role (${role ?? 'none'}) does not allow this: it needs the ${permission} permission.`,
    );
  };
}
