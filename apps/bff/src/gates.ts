import { BULK_BODY_LIMIT_BYTES, type Permission, type RolePolicy } from '@review-desk/shared';
import type { CookieSettings } from './auth/cookies.ts';
import { permission, session } from './auth/gates.ts';
import type { SessionStore } from './auth/sessions.ts';
import { fairShare } from './fair-share/gate.ts';
import type { ShareDecision } from './fair-share/user-rate.ts';
import { jsonBody, noBody } from './http/body.ts';
import { beginRequest } from './http/context.ts';
import type { Gate } from './http/gate.ts';
import { crossOrigin, csrf, type OriginPolicy, publicHost } from './http/origin.ts';
import { safeTarget, securityHeaders } from './http/security.ts';
import type { LocationDirectory } from './locations/directory.ts';
import { locationGate } from './locations/gate.ts';
import type { AccessLog } from './log.ts';
import type { Metrics } from './metrics.ts';

// The BFF's security gates and the one order they run in. Express, the only way into the server
// (docs/decisions/0010-bff-fast-path.md), runs `entry` as its first layer, then, for a route, its own
// list below; a route's handler runs only when all passed. A new rule (a per-user limit, a
// location check) is a gate added here, once, for every route that needs it.
//
//   entry:  request id → security headers → safe target → public Host → cross-origin
//   route:  [allow-list, under /api: proxy/routes.ts] → CSRF → session → role → location → body rules
//           → the user's fair share of the key's rate limit (upstream calls only: counted last,
//             so a call refused for another reason uses none of it)
//   (the `/l/<slug>` prefix is taken off before any route: locations/gate.ts)

export type RouteGates = Record<
  | 'reviews'
  | 'review'
  | 'reviewStatus'
  | 'reviewReply'
  | 'reviewWithdraw'
  | 'reviewActions'
  | 'savedReplies.read'
  | 'savedReplies.write'
  | 'analytics'
  | 'send'
  | 'requests'
  | 'request'
  | 'login'
  | 'logout'
  | 'me'
  | 'password'
  | 'sends'
  | 'users.read'
  | 'users.write'
  | 'users.remove'
  | 'locations'
  | 'overview'
  | 'settings.read'
  | 'settings.write'
  | 'settings.remove'
  | 'integrations.read'
  | 'integrations.write'
  | 'integrations.remove'
  | 'widget.read'
  | 'widget.write'
  | 'widget.show'
  | 'alerts'
  | 'alerts.write'
  | 'bulk.read'
  | 'bulk.write'
  | 'bulk.control',
  readonly Gate[]
>;

export type Gates = {
  /** Every request, before any route. */
  entry: readonly Gate[];
  /** Each route's own gates, after `entry` (and, under /api, after the allow-list). */
  routes: RouteGates;
};

export function createGates(deps: {
  access: AccessLog;
  metrics: Metrics;
  policy: OriginPolicy;
  sessions: SessionStore;
  cookies: CookieSettings;
  locations: LocationDirectory;
  /** Each user's share of the upstream key's rate limit (null: none). */
  share: { take(userId: string): Promise<ShareDecision> } | null;
  /** What the deployment changes about the roles (STAFF_MAY_REPLY). */
  roles: RolePolicy;
}): Gates {
  const signedIn = session(deps.sessions, deps.cookies);
  const sameSite = csrf(deps.policy);
  const json = jsonBody();
  const may = (needed: Permission) => [signedIn, permission(needed, deps.roles)];
  /** An upstream call: the permission, then the location (403 before anything goes upstream). */
  const at = locationGate(deps.locations);
  /** The user's fair share of the key's rate limit: the last gate before a call goes upstream. */
  const share = fairShare(deps.share);
  /** The first gate: the request's context and id, and its access line (it never refuses). */
  const requestId: Gate = (req, res) => {
    beginRequest(req, res, deps.access, deps.metrics);
    return null;
  };
  return {
    entry: [requestId, securityHeaders(), safeTarget, publicHost(deps.policy), crossOrigin(deps.policy)],
    routes: {
      reviews: [...may('reviews:read'), at, noBody, share],
      review: [...may('reviews:read'), at, noBody, share],
      // Answering: who may (STAFF_MAY_REPLY decides for staff), at the location addressed.
      reviewStatus: [sameSite, ...may('reviews:reply'), at, json, share],
      reviewReply: [sameSite, ...may('reviews:reply'), at, json, share],
      reviewWithdraw: [sameSite, ...may('reviews:reply'), at, noBody, share],
      // The journal of who answered a review, and the saved replies (no upstream call: no share).
      reviewActions: [...may('reviews:read'), at, noBody],
      'savedReplies.read': [...may('reviews:read'), at, noBody],
      'savedReplies.write': [sameSite, ...may('settings:manage'), at, json],
      analytics: [...may('analytics:read'), at, noBody, share],
      send: [sameSite, ...may('requests:send'), at, json, share],
      requests: [...may('sends:read'), at, noBody, share],
      request: [...may('sends:read'), at, noBody, share],
      login: [sameSite, json],
      logout: [sameSite],
      me: [signedIn],
      password: [sameSite, signedIn, json],
      // The history of the location addressed (no upstream call: no share taken).
      sends: [...may('sends:read'), at],
      'users.read': may('users:manage'),
      'users.write': [sameSite, ...may('users:manage'), json],
      'users.remove': [sameSite, ...may('users:manage')],
      locations: [signedIn],
      overview: [...may('analytics:read'), noBody, share],
      'settings.read': [...may('settings:manage'), at, noBody, share],
      'settings.write': [sameSite, ...may('settings:manage'), at, json, share],
      'settings.remove': [sameSite, ...may('settings:manage'), at, noBody, share],
      // Settings → Integrations: the same owners; removals and actions carry no body.
      'integrations.read': [...may('settings:manage'), at, noBody, share],
      'integrations.write': [sameSite, ...may('settings:manage'), at, json, share],
      'integrations.remove': [sameSite, ...may('settings:manage'), at, share],
      // Settings → Website widget: the same owners; showing a review again carries no body.
      'widget.read': [...may('settings:manage'), at, noBody, share],
      'widget.write': [sameSite, ...may('settings:manage'), at, json, share],
      'widget.show': [sameSite, ...may('settings:manage'), at, noBody, share],
      alerts: [...may('reviews:read'), noBody],
      'alerts.write': [sameSite, ...may('reviews:read'), json],
      // List sends: who may send may send to a list, at the location addressed.
      'bulk.read': [...may('sends:read'), at, noBody],
      'bulk.write': [sameSite, ...may('requests:send'), at, jsonBody(BULK_BODY_LIMIT_BYTES)],
      'bulk.control': [sameSite, ...may('requests:send'), at],
    },
  };
}
