// The suite runs at two sizes: the fast one in `npm test`, the long one under `npm run test:soak`
// (RD_SOAK=1). Every long run is bounded in time and in count.

export const SOAK = process.env.RD_SOAK === '1';

/** `fast` in npm test, `soak` in the soak run (or the value of the environment variable `name`). */
export function scaled(fast: number, soak: number, name?: string): number {
  const override = name ? Number(process.env[name]) : Number.NaN;
  if (Number.isFinite(override) && override > 0) return override;
  return SOAK ? soak : fast;
}
