import type { Permission } from '@review-desk/shared/bff';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType, SVGProps } from 'react';
import { paths } from '../config/paths.ts';
import { reviewsQueryOptionsForUrl } from '../features/reviews/api/get-reviews.ts';
import { type LazyPage, lazyPage, type PageModule } from './lazy-page.tsx';

// The dashboard's pages, one row each. The router, the navigation, the permission guard, lazy
// loading and the start-up prefetch are all derived from this table: adding a page is adding a
// row (and its address in config/paths.ts, where features find the URLs they link to; a feature
// cannot import this table, which imports the features).

export type PageRow = {
  /** Its address, from `paths`. */
  path: string;
  /** Its name: the page's heading and the browser tab's title, and what "Not allowed" names. */
  title: string;
  /** What the session must hold to open it (the BFF enforces the same); `public`: no sign-in. */
  access: Permission | 'public';
  /** The page's module, in a chunk of its own, fetched on first visit or on intent (nav hover). */
  load: () => Promise<PageModule>;
  /** In the main navigation, in table order, for the roles that may open it. */
  nav?: { label: string; icon?: ComponentType<SVGProps<SVGSVGElement>> };
  /**
   * What the page reads first, asked for at start together with its code (for a page some role
   * cannot use, once the session has said this user's role may).
   */
  firstRead?: (client: QueryClient, search: URLSearchParams) => Promise<void>;
  /** Only in the navigation of a user with more than one location (it compares or merges them). */
  multiLocation?: true;
};

export const PAGES = {
  login: {
    path: paths.login,
    title: 'Sign in',
    access: 'public',
    load: () => import('../features/auth/components/login-page.tsx'),
  },
  reviews: {
    path: paths.reviews,
    title: 'Reviews',
    access: 'reviews:read',
    load: () => import('../features/reviews/components/reviews-page.tsx'),
    nav: { label: 'Reviews' },
    firstRead: (client, search) => client.prefetchQuery(reviewsQueryOptionsForUrl(search)),
  },
  // Every review still waiting for an answer, across the user's locations (it replaced "Needs
  // attention"; /attention leads here: router.tsx).
  inbox: {
    path: paths.inbox,
    title: 'Inbox',
    access: 'reviews:read',
    load: () => import('../features/reviews/components/inbox-page.tsx'),
    nav: { label: 'Inbox' },
    // Its reader comes with its first read: not part of every page's first load.
    firstRead: async (client, search) => {
      const { inboxQueryOptionsForUrl } = await import('../features/reviews/api/get-inbox.ts');
      await client.prefetchQuery(inboxQueryOptionsForUrl(client, search));
    },
  },
  send: {
    path: paths.send,
    title: 'Send a review request',
    access: 'requests:send',
    load: () => import('../features/requests/components/send-page.tsx'),
    nav: { label: 'Send request' },
  },
  bulk: {
    path: paths.bulk,
    title: 'Send to a list',
    access: 'requests:send',
    // Reached from the Send request page; its own chunk, loaded on the first visit.
    load: () => import('../features/bulk/components/bulk-send-page.tsx'),
  },
  requests: {
    path: paths.requests,
    title: 'Recent requests',
    access: 'sends:read',
    load: () => import('../features/requests/components/recent-requests-page.tsx'),
    nav: { label: 'Recent requests' },
  },
  analytics: {
    path: paths.analytics,
    title: 'Analytics',
    access: 'analytics:read',
    load: () => import('../features/analytics/components/analytics-page.tsx'),
    nav: { label: 'Analytics' },
  },
  locations: {
    path: paths.locations,
    title: 'Locations',
    access: 'analytics:read',
    load: () => import('../features/locations/components/locations-overview-page.tsx'),
    nav: { label: 'Locations' },
    // Its read's module is fetched with the page's code: the first load stays as it was.
    firstRead: async (client, search) => {
      const { overviewDays, overviewQueryOptions } = await import(
        '../features/locations/api/get-overview.ts'
      );
      await client.prefetchQuery(overviewQueryOptions(overviewDays(search)));
    },
    multiLocation: true,
  },
  users: {
    path: paths.users,
    title: 'Users',
    access: 'users:manage',
    load: () => import('../features/users/components/users-page.tsx'),
    nav: { label: 'Users' },
  },
  settings: {
    path: paths.settings,
    title: 'Settings',
    access: 'settings:manage',
    load: () => import('../features/settings/components/settings-page.tsx'),
    nav: { label: 'Settings' },
  },
  // Every role that reads reviews may have alerts; the bell's list links here (no nav entry).
  notifications: {
    path: paths.notifications,
    title: 'Notifications',
    access: 'reviews:read',
    load: () => import('../features/notifications/components/notifications-page.tsx'),
  },
} satisfies Record<Exclude<keyof typeof paths, 'home'>, PageRow>;

/**
 * Where `/` (and so a sign-in without `next`) leads. Its module ships with the entry in one chunk:
 * FIRST_LOAD_ROOTS in vite.config.ts names it, change both together.
 */
export const LANDING: keyof typeof PAGES = 'reviews';

export type Page = PageRow & { name: string; Component: LazyPage };

/** The table as the app uses it: each row with its lazily loaded component, made once. */
export function toPages(table: Record<string, PageRow>): Page[] {
  return Object.entries(table).map(([name, row]) => ({ ...row, name, Component: lazyPage(row.load) }));
}

export const pages: readonly Page[] = toPages(PAGES);

/** The page an address shows (`/` shows the landing page, by a redirect). */
export function pageAt(pathname: string, among: readonly Page[] = pages): Page | undefined {
  const path = pathname === paths.home ? PAGES[LANDING].path : pathname;
  return among.find((page) => page.path === path);
}
