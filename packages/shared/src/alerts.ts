import { RATING_MAX, RATING_MIN } from './limits.ts';
import { locationPrefix } from './location-paths.ts';
import { isValidTimeZone } from './quiet-hours.ts';
import { z } from './zod.ts';

// Alerts on low ratings and the weekly digest (docs/alerts.md): the BFF's routes, each user's
// preferences, and what the bell and the Notifications page read.

export const ALERT_PATHS = {
  preferences: '/bff/notifications/preferences',
  alerts: '/bff/alerts',
  read: '/bff/alerts/read',
} as const;

/** A review at or below this rating raises an alert unless the user chose another threshold. */
export const ALERT_THRESHOLD_DEFAULT = 2;
/** Email (and the bell), or the bell only. */
export const ALERT_CHANNELS = ['email', 'in_app'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];
/** Characters of a review's text an alert carries. */
export const ALERT_EXCERPT_MAX = 300;
/** Alerts one list read returns, newest first. */
export const ALERT_LIST_MAX = 50;
export const ALERT_TIME_ZONE_DEFAULT = 'UTC';

const THRESHOLD_WORDS = `threshold must be a whole number from ${RATING_MIN} to ${RATING_MAX}`;
export const alertPreferencesSchema = /* @__PURE__ */ z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  threshold: /* @__PURE__ */ z
    .number({ error: THRESHOLD_WORDS })
    .check(
      z.int({ error: THRESHOLD_WORDS }),
      z.gte(RATING_MIN, { error: THRESHOLD_WORDS }),
      z.lte(RATING_MAX, { error: THRESHOLD_WORDS }),
    ),
  channel: z.enum(ALERT_CHANNELS, { error: 'channel must be email or in_app' }),
  timeZone: /* @__PURE__ */ z
    .string({ error: 'timeZone must be a time zone such as Europe/London' })
    .check(z.refine(isValidTimeZone, { error: 'timeZone must be a time zone such as Europe/London' })),
  digest: z.boolean({ error: 'digest must be true or false' }),
});
export type AlertPreferences = z.infer<typeof alertPreferencesSchema>;

export const DEFAULT_ALERT_PREFERENCES: AlertPreferences = {
  enabled: false,
  threshold: ALERT_THRESHOLD_DEFAULT,
  channel: 'email',
  timeZone: ALERT_TIME_ZONE_DEFAULT,
  digest: false,
};

/** GET/PUT /bff/notifications/preferences answer. */
export const preferencesReplySchema = /* @__PURE__ */ z.object({
  preferences: alertPreferencesSchema,
  /** Whether the BFF can send email at all (BFF_SMTP_URL is set). */
  emailConfigured: z.boolean(),
  /** Development: emails are kept in the BFF's outbox page (/dev/outbox.json), not sent. */
  devOutbox: z.optional(z.boolean()),
  /** The weekly digest needs analytics: roles without it cannot opt in. */
  digestAllowed: z.boolean(),
});
export type PreferencesReply = z.infer<typeof preferencesReplySchema>;

export const alertSchema = /* @__PURE__ */ z.object({
  id: /* @__PURE__ */ z.number().check(z.int()),
  location: z.string(),
  locationName: z.string(),
  reviewId: z.string(),
  rating: /* @__PURE__ */ z.number().check(z.int()),
  author: z.nullable(z.string()),
  excerpt: z.nullable(z.string()),
  reviewDate: z.nullable(z.string()),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Alert = z.infer<typeof alertSchema>;

/** GET /bff/alerts answer. */
export const alertListSchema = /* @__PURE__ */ z.object({
  unread: /* @__PURE__ */ z.number().check(z.int(), z.nonnegative()),
  /**
   * Since when every new review at the user's locations alerts them: the first poll of each after
   * alerts were turned on. Null while alerts are off or that poll has not run yet.
   */
  activeSince: z.optional(z.nullable(z.string())),
  alerts: z.array(alertSchema),
});
export type AlertList = z.infer<typeof alertListSchema>;

/** POST /bff/alerts/read: some alerts by id, or all of the user's. */
export const markAlertsReadSchema = /* @__PURE__ */ z.union(
  [
    z.strictObject({
      ids: z
        .array(/* @__PURE__ */ z.number().check(z.int(), z.positive()), {
          error: 'ids must be a list of alert ids',
        })
        .check(
          z.minLength(1, { error: 'ids must name at least one alert' }),
          z.maxLength(ALERT_LIST_MAX, { error: `ids may name at most ${ALERT_LIST_MAX} alerts` }),
        ),
    }),
    z.strictObject({ all: z.literal(true, { error: 'all must be true' }) }),
  ],
  { error: 'Send {"ids": [...]} or {"all": true}' },
);
export type MarkAlertsRead = z.infer<typeof markAlertsReadSchema>;

/** Where the dashboard shows one review: the location's reviews page with its detail open. */
export function reviewDetailPath(location: string, reviewId: string): string {
  return `${locationPrefix(location)}/reviews?review=${encodeURIComponent(reviewId)}`;
}

/** The first ALERT_EXCERPT_MAX characters (whole code points), with an ellipsis when cut. */
export function alertExcerpt(text: string | null | undefined): string | null {
  if (typeof text !== 'string' || text.trim() === '') return null;
  const chars = Array.from(text.trim());
  return chars.length <= ALERT_EXCERPT_MAX
    ? chars.join('')
    : `${chars.slice(0, ALERT_EXCERPT_MAX).join('')}…`;
}
