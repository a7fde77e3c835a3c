// GET /bff/locations is read by several features and the shell: it lives in lib/locations.ts.
export { getLocations, locationsQueryOptions, useLocations } from '../../../lib/locations.ts';
