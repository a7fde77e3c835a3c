import * as setting from '@review-desk/server/config';
import { timeZoneSchema } from '@review-desk/shared';
import { DAY_MS } from '@review-desk/shared/time';

// List sends' settings (docs/bulk.md): their pace, their lease, the wall clock of their daily caps,
// and what one user or one location may store. Part of the BFF's configuration table (env.ts).

export const BULK_CONFIG = setting.defineConfig({
  BULK_SEND_RATE_PER_MINUTE: {
    type: setting.wholeNumber(1, 100_000),
    default: '60',
    description:
      'A list send’s most sends a minute (each job; one at a time). The upstream’s `429` and `Retry-After` slow it further.',
  },
  BULK_UPSTREAM_DOWN_MINUTES: {
    type: setting.decimal(0.01, 10_080),
    default: '15',
    description:
      'A list send pauses, with the reason, when the upstream has failed every attempt for this long.',
  },
  BULK_LEASE_SECONDS: {
    type: setting.decimal(0.5, 3_600),
    default: '30',
    description:
      'How long a list send’s worker holds its job without renewing: after a crash another process (or the restarted one) resumes it this long later.',
  },
  BULK_TIME_ZONE: {
    type: timeZoneSchema,
    default: 'UTC',
    description:
      'The wall clock a list send’s daily cap counts days on (IANA, e.g. `Europe/London`): the next day’s rows go from its midnight.',
  },
  BULK_USER_LISTS_MAX: {
    type: setting.wholeNumber(1, 1_000),
    default: '2',
    description:
      'List sends one user may have in progress (running or paused) at once; another is refused with 429 `bulk_lists_limit`.',
  },
  BULK_LOCATION_LISTS_MAX: {
    type: setting.wholeNumber(1, 10_000),
    default: '5',
    description: 'List sends one location may have in progress at once (429 `bulk_lists_limit` beyond).',
  },
  BULK_USER_ROWS_MAX: {
    type: setting.wholeNumber(1, 100_000_000),
    default: '100000',
    description:
      'Rows one user’s stored lists may hold in all (in progress or finished, until deleted); a list that would pass it is refused with 413 `bulk_rows_limit`.',
  },
  BULK_LOCATION_ROWS_MAX: {
    type: setting.wholeNumber(1, 100_000_000),
    default: '250000',
    description: 'Rows one location’s stored lists may hold in all (413 `bulk_rows_limit` beyond).',
  },
  BULK_RETENTION_DAYS: {
    type: setting.wholeNumber(1, 3_650),
    default: '90',
    description:
      'Finished list sends (done or cancelled) and their rows are deleted this many days after they finished.',
  },
});

type BulkValues = setting.ConfigValues<typeof BULK_CONFIG>;

export function loadBulkConfig(env: BulkValues) {
  return {
    ratePerMinute: env.BULK_SEND_RATE_PER_MINUTE,
    downBoundMs: Math.round(env.BULK_UPSTREAM_DOWN_MINUTES * 60_000),
    leaseMs: Math.round(env.BULK_LEASE_SECONDS * 1_000),
    pollMs: Math.min(1_000, Math.round(env.BULK_LEASE_SECONDS * 250)),
    timeZone: env.BULK_TIME_ZONE,
    /** What lists may hold: in progress at once, and rows stored, per user and per location. */
    limits: {
      userLists: env.BULK_USER_LISTS_MAX,
      locationLists: env.BULK_LOCATION_LISTS_MAX,
      userRows: env.BULK_USER_ROWS_MAX,
      locationRows: env.BULK_LOCATION_ROWS_MAX,
    },
    retentionMs: env.BULK_RETENTION_DAYS * DAY_MS,
  };
}
export type BulkConfig = ReturnType<typeof loadBulkConfig>;
export type BulkLimits = BulkConfig['limits'];
