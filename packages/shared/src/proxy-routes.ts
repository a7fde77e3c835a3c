import { REQUEST_ENDPOINTS } from './requests.ts';
import { REVIEW_ENDPOINTS } from './review-reply.ts';
import type { Permission } from './roles.ts';
import { ENDPOINTS } from './scopes.ts';

// The BFF's allow-list: the upstream calls it forwards, each with the permission it needs.

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
