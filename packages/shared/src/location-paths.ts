// Where a location appears in an address: `/l/<slug>/…`. Plain functions, no schema, so the
// dashboard's first load can read its address without the locations' schemas.

export const LOCATION_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** The path prefix that names a location: `/l/<slug>`. */
export function locationPrefix(slug: string): string {
  return `/l/${encodeURIComponent(slug)}`;
}

/** Splits `/l/<slug>/rest` into the slug and `/rest` (`/l/<slug>` alone: `/`); null for other paths. */
export function splitLocationPath(path: string): { slug: string; rest: string } | null {
  const match = /^\/l\/([^/]+)(\/.*)?$/.exec(path);
  if (!match) return null;
  return { slug: match[1] as string, rest: match[2] ?? '/' };
}

/** The location-less path under a prefix (`/l/x/reviews` → `/reviews`); other paths unchanged. */
export function withoutLocation(path: string): string {
  return splitLocationPath(path)?.rest ?? path;
}
