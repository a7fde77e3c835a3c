import { RATING_MAX, RATING_MIN } from './limits.ts';
import { locationPrefix } from './location-paths.ts';
import { isValidTimeZone } from './quiet-hours.ts';
import type { Role } from './roles.ts';
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

export const alertPreferencesSchema = /* @__PURE__ */ z.strictObject({
  enabled: z.boolean({ error: 'Alerts must be on or off' }),
  threshold: z
    .number({ error: `Threshold must be a whole number of stars from ${RATING_MIN} to ${RATING_MAX}` })
    .check(
      z.int({ error: `Threshold must be a whole number of stars from ${RATING_MIN} to ${RATING_MAX}` }),
      z.gte(RATING_MIN, {
        error: `Threshold must be a whole number of stars from ${RATING_MIN} to ${RATING_MAX}`,
      }),
      z.lte(RATING_MAX, {
        error: `Threshold must be a whole number of stars from ${RATING_MIN} to ${RATING_MAX}`,
      }),
    ),
  channel: z.enum(ALERT_CHANNELS, { error: 'Where must be email and the bell, or the bell only' }),
  timeZone: z
    .string({ error: 'Time zone must be a time zone such as Europe/London' })
    .check(z.refine(isValidTimeZone, { error: 'Time zone must be a time zone such as Europe/London' })),
  digest: z.boolean({ error: 'Weekly digest must be on or off' }),
});
export type AlertPreferences = z.infer<typeof alertPreferencesSchema>;

export const DEFAULT_ALERT_PREFERENCES: AlertPreferences = {
  enabled: false,
  threshold: ALERT_THRESHOLD_DEFAULT,
  channel: 'email',
  timeZone: ALERT_TIME_ZONE_DEFAULT,
  digest: false,
};

/**
 * Roles alerted of low ratings until they choose otherwise (docs/alerts.md): those who answer for
 * the business hear of a bad review without having to find a setting first; staff opt in.
 */
export const ALERTS_ON_BY_DEFAULT: readonly Role[] = ['owner', 'manager'];

/** A user's preferences until they save their own: alerts on for ALERTS_ON_BY_DEFAULT, by email (and the bell). */
export function defaultAlertPreferences(role: Role): AlertPreferences {
  return { ...DEFAULT_ALERT_PREFERENCES, enabled: ALERTS_ON_BY_DEFAULT.includes(role) };
}

/** GET/PUT /bff/notifications/preferences answer. */
export const preferencesReplySchema = /* @__PURE__ */ z.object({
  preferences: alertPreferencesSchema,
  /** Whether the BFF can send email at all (BFF_SMTP_URL is set). */
  emailConfigured: z.boolean(),
  /** Development: emails are kept in the BFF's outbox page (/dev/outbox.json), not sent. */
  devOutbox: z.optional(z.boolean()),
  /** The weekly digest needs analytics: roles without it cannot opt in. */
  digestAllowed: z.boolean(),
  /** Whether the user saved their own choice; false: these are their role's defaults. */
  saved: z.optional(z.boolean()),
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
  /** Whether the user's alerts are on (their choice, or their role's default), and at what threshold. */
  enabled: z.optional(z.boolean()),
  threshold: z.optional(z.number().check(z.int())),
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
