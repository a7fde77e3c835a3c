import { can, type Permission, ROLES } from '@review-desk/shared/bff';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { paths } from '../config/paths.ts';
import { meQueryOptions } from '../features/auth/api/get-me.ts';
import { reviewsQueryOptionsForUrl } from '../features/reviews/api/get-reviews.ts';
import { lazyPage } from './lazy-page.tsx';

// Every page is its own chunk, loaded when first visited (or when its nav link is hovered or
// focused). The charts library lives only in the analytics chunk.
export const routePages = {
  login: lazyPage(() => import('../features/auth/components/login-page.tsx')),
  reviews: lazyPage(() => import('../features/reviews/components/reviews-page.tsx')),
  send: lazyPage(() => import('../features/requests/components/send-page.tsx')),
  requests: lazyPage(() => import('../features/requests/components/recent-requests-page.tsx')),
  analytics: lazyPage(() => import('../features/analytics/components/analytics-page.tsx')),
  users: lazyPage(() => import('../features/users/components/users-page.tsx')),
};

/** The permission each signed-in page needs (the BFF enforces the same rules). */
export const PAGE_PERMISSIONS = {
  reviews: 'reviews:read',
  send: 'requests:send',
  requests: 'sends:read',
  analytics: 'analytics:read',
  users: 'users:manage',
} as const satisfies Record<Exclude<keyof typeof routePages, 'login'>, Permission>;

type SignedInPage = keyof typeof PAGE_PERMISSIONS;

/** What a page reads first, so it can be asked for before the page's code has even arrived. */
const FIRST_READS: Partial<
  Record<SignedInPage, (client: QueryClient, search: URLSearchParams) => Promise<void>>
> = {
  reviews: (client, search) => client.prefetchQuery(reviewsQueryOptionsForUrl(search)),
};

/**
 * At start, everything the page in the address bar needs is asked for at once, instead of one
 * after the other (session → page code → page data): the session, the page's chunk and its first
 * read. Only for a page every role may open: the code and data of a page a role cannot use
 * (Analytics for staff) are still requested only after the role is known. Resolves when all of
 * it has settled (answered or failed; prefetches never reject).
 */
export function startPage(
  location: { pathname: string; search: string },
  client: QueryClient,
): Promise<void> {
  if (location.pathname === paths.login) {
    return routePages.login.preload().then(
      () => undefined,
      () => undefined,
    );
  }
  const started: Promise<unknown>[] = [client.prefetchQuery(meQueryOptions())];
  for (const [name, permission] of Object.entries(PAGE_PERMISSIONS) as [SignedInPage, Permission][]) {
    if (location.pathname !== paths[name] || !ROLES.every((role) => can(role, permission))) continue;
    startPageCode = routePages[name].preload().then(
      () => {
        startPageCodeReady = true;
      },
      () => {
        startPageCodeReady = true; // the page's own error boundary reports a chunk that cannot load
      },
    );
    started.push(startPageCode);
    const read = FIRST_READS[name];
    if (read) started.push(read(client, new URLSearchParams(location.search)));
  }
  return Promise.all(started).then(() => undefined);
}

let startPageCode: Promise<void> | null = null;
let startPageCodeReady = false;

/**
 * Whether the code of the page opened at start has arrived (true when none was started). The
 * session gate waits for it: showing the shell first would put the page behind a Suspense
 * fallback, and React then holds it back until 300 ms after that fallback appeared.
 */
export function useStartPageCode(): boolean {
  const [ready, setReady] = useState(startPageCode === null || startPageCodeReady);
  useEffect(() => {
    if (ready || startPageCode === null) return;
    let live = true;
    void startPageCode.then(() => {
      startPageCode = null;
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [ready]);
  return ready;
}
