import { LOCATION_SLUG_PATTERN } from './location-paths.ts';
import { z } from './zod.ts';

export * from './location-paths.ts';

// Locations: one business with several locations (or an agency with several clients), one API key
// each. The BFF stores them (docs/locations.md); the dashboard addresses a location by its slug in
// the path, `/l/<slug>/api/v1/…`, and `GET /bff/locations` lists the ones a user may see.

export const locationSlugSchema = /* @__PURE__ */ z.string().check(
  z.regex(LOCATION_SLUG_PATTERN, {
    error: 'slug must be 1–40 lower-case letters, digits or hyphens, not starting or ending with a hyphen',
  }),
);

export const locationNameSchema = /* @__PURE__ */ z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: 'name must not be empty' }),
    z.maxLength(80, { error: 'name must be at most 80 characters' }),
  );

/** What a browser may know of a location: never its key, upstream or Origin. */
export const locationSummarySchema = /* @__PURE__ */ z.object({ slug: locationSlugSchema, name: z.string() });
export type LocationSummary = z.infer<typeof locationSummarySchema>;

/** GET /bff/locations: the user's locations in order; the first is what `/api/v1/…` addresses. */
export const locationListSchema = /* @__PURE__ */ z.object({ locations: z.array(locationSummarySchema) });
export type LocationList = z.infer<typeof locationListSchema>;

/** A user's reach: every location (now and later), or the chosen ones. */
export const locationAccessSchema = /* @__PURE__ */ z.discriminatedUnion('all', [
  z.object({ all: z.literal(true) }),
  z.object({
    all: z.literal(false),
    slugs: /* @__PURE__ */ z.array(locationSlugSchema).check(z.maxLength(1000)),
  }),
]);
export type LocationAccess = z.infer<typeof locationAccessSchema>;

/** GET/PUT /bff/users/:id/locations: a user's reach, and (GET) every location to choose from. */
export const userLocationsSchema = /* @__PURE__ */ z.object({
  access: locationAccessSchema,
  locations: z.optional(z.array(locationSummarySchema)),
});
export type UserLocations = z.infer<typeof userLocationsSchema>;
