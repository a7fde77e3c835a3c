import { locationPrefix, splitLocationPath } from '@review-desk/shared/location-paths';

// The location this page load works in. It is part of the address, `/l/<slug>/reviews`, so a
// link names its location; the router runs under that prefix and the calls to the API and the
// send history go to `/l/<slug>/…` (the BFF refuses a location the user lacks). No prefix: the
// user's first location. Switching location loads the new address, so nothing one location
// showed or cached can appear in another's pages.

export function locationOf(pathname: string): string | null {
  return splitLocationPath(pathname)?.slug ?? null;
}

/** The slug of this page load (null: the user's first location). */
export const CURRENT_LOCATION: string | null =
  typeof window === 'undefined' ? null : locationOf(window.location.pathname);

/** The router's basename: `/l/<slug>`, or undefined without a location in the address. */
export const ROUTER_BASENAME: string | undefined =
  CURRENT_LOCATION === null ? undefined : locationPrefix(CURRENT_LOCATION);

/**
 * Calls that belong to a location: the upstream API, the send history, the journal of who
 * answered a review, the saved replies and the location's settings (its Google connection too).
 */
const PER_LOCATION = /^\/(api\/|bff\/(sends|review-actions|saved-replies|settings)(?:[/?]|$))/;

/** A call's path in `slug`'s location: this page load's by default (the inbox names each review's). */
export function inLocation(path: string, slug: string | null = CURRENT_LOCATION): string {
  return slug !== null && PER_LOCATION.test(path) ? `${locationPrefix(slug)}${path}` : path;
}

/** The address of a page (a path of the dashboard, with its query) in another location. */
export function locationHref(slug: string, pagePath: string): string {
  return `${locationPrefix(slug)}${pagePath.startsWith('/') ? pagePath : `/${pagePath}`}`;
}

const REMEMBERED = 'rd.location.';

/** The location a user last chose on this browser (per user: several may share one). */
export function rememberedLocation(userId: string): string | null {
  try {
    return window.localStorage.getItem(REMEMBERED + userId);
  } catch {
    return null;
  }
}

export function rememberLocation(userId: string, slug: string): void {
  try {
    window.localStorage.setItem(REMEMBERED + userId, slug);
  } catch {
    // Storage refused (private mode, quota): the choice lasts for this page load only.
  }
}
