import { can, ROLES } from '@review-desk/shared/bff';
import { withoutLocation } from '@review-desk/shared/location-paths';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { meQueryOptions } from '../features/auth/api/get-me.ts';
import { locationsQueryOptions } from '../lib/location-list.ts';
import { pageAt } from './pages.ts';

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
  const page = pageAt(withoutLocation(location.pathname));
  if (page?.access === 'public') {
    return page.Component.preload().then(
      () => undefined,
      () => undefined,
    );
  }
  const started: Promise<unknown>[] = [
    client.prefetchQuery(meQueryOptions()),
    client.prefetchQuery(locationsQueryOptions()),
  ];
  const access = page?.access;
  if (page && access !== undefined && ROLES.every((role) => can(role, access))) {
    startPageCode = page.Component.preload().then(
      () => {
        startPageCodeReady = true;
      },
      () => {
        startPageCodeReady = true; // the page's own error boundary reports a chunk that cannot load
      },
    );
    started.push(startPageCode);
    if (page.firstRead) started.push(page.firstRead(client, new URLSearchParams(location.search)));
  } else if (page && access !== undefined) {
    // A page some roles may not open: its code and first read as soon as the session says this
    // user's role may, rather than after the shell has drawn.
    started.push(
      client.fetchQuery(meQueryOptions()).then(
        (me) =>
          me.permissions.includes(access)
            ? Promise.all([
                page.Component.preload().catch(() => undefined),
                page.firstRead?.(client, new URLSearchParams(location.search)),
              ])
            : undefined,
        () => undefined,
      ),
    );
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
