// Every route of the dashboard, written once. Links and redirects build their URLs here.

export const paths = {
  home: '/',
  login: '/login',
  reviews: '/reviews',
  send: '/send',
  bulk: '/send/list',
  requests: '/requests',
  analytics: '/analytics',
  users: '/users',
  locations: '/locations',
  inbox: '/inbox',
  settings: '/settings',
  notifications: '/notifications',
} as const;

/** The inbox's old address ("Needs attention"): kept as a way in. */
export const OLD_INBOX_PATH = '/attention';

/** Where to come back to after signing in: only a path of this dashboard, never another site. */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return paths.home;
  if (next === paths.login || next.startsWith(`${paths.login}?`)) return paths.home;
  return next;
}

export function loginHref(next?: string): string {
  const target = next ? safeNext(next) : paths.home;
  return target === paths.home ? paths.login : `${paths.login}?next=${encodeURIComponent(target)}`;
}

export function requestsHref(contact?: string): string {
  return contact ? `${paths.requests}?contact=${encodeURIComponent(contact)}` : paths.requests;
}
