import { CHANNELS } from './channels.ts';
import { DAYS_DEFAULT, DAYS_MAX, DAYS_MIN } from './limits.ts';
import { intParam, searchParamsOf } from './query.ts';
import { z } from './zod.ts';

// GET /api/v1/analytics (docs/api.md, "Analytics"). A deployment is only known to send `completed`
// and `reviewLeft`; the rest is the real service's shape, extended. Definitions below are the ones
// our service computes and the dashboard explains.

export const analyticsQuerySchema = /* @__PURE__ */ z.strictObject({
  days: z._default(intParam('days', DAYS_MIN, DAYS_MAX), DAYS_DEFAULT),
});
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;

export const analyticsSearchParams = /* @__PURE__ */ searchParamsOf(analyticsQuerySchema);

const count = /* @__PURE__ */ z.number().check(z.int(), z.nonnegative());
/** A share from 0 to 1, or null when its denominator is 0. */
const rate = /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.number().check(z.gte(0), z.lte(1)));
/** Mean rating, or null when there is nothing to average. */
const mean = /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.number().check(z.gte(0), z.lte(5)));

/** What our service writes: every field present. */
export const analyticsOutputSchema = /* @__PURE__ */ z.object({
  rangeDays: /* @__PURE__ */ z.number().check(z.int()),
  /** Window: the last `rangeDays` calendar days in UTC, today included. */
  from: z.string(),
  to: z.string(),
  reviews: z.object({
    total: count,
    avgRating: mean,
    responded: count,
    pending: count,
    ignored: count,
    responseRate: rate,
    byRating: z.object({ '1': count, '2': count, '3': count, '4': count, '5': count }),
  }),
  requests: z.object({
    total: count,
    sent: count,
    clicked: count,
    completed: count,
    reviewLeft: count,
    feedback: count,
    handoffs: count,
    failed: count,
    byChannel: z.object(
      Object.fromEntries(CHANNELS.map((c) => [c, count])) as Record<(typeof CHANNELS)[number], typeof count>,
    ),
    clickRate: rate,
    completionRate: rate,
  }),
  synced: z.object({
    total: count,
    avgRating: mean,
    byPlatform: z.record(z.string(), count),
  }),
  daily: z.array(
    z.object({
      date: z.string(),
      sent: count,
      completed: count,
      reviews: count,
      synced: count,
      avgRating: mean,
    }),
  ) /**
   * Extension: the automatic reminders sent in the window, and how many of their requests were
   * completed after the reminder (docs/settings.md). Another deployment may leave it out.
   */,
  reminders: z.optional(z.object({ sent: count, completedAfter: count })),
  /**
   * Extension: the window's reviews that have a first reply, and the median time to it in seconds
   * (null when none has). Another deployment may leave it out.
   */
  replies: z.optional(
    z.object({
      firstReplies: count,
      medianFirstReplySeconds: z.nullable(/* @__PURE__ */ z.number().check(z.nonnegative())),
    }),
  ),
});
export type AnalyticsOutput = z.infer<typeof analyticsOutputSchema>;

// Tolerant reading: a deployment is only known to send `completed` and `reviewLeft` (under
// `requests`, as the real service does, or at the top of `data`). Everything is optional and
// unknown fields are kept; a missing figure is "not provided", never a zero.
const optCount = /* @__PURE__ */ z.optional(/* @__PURE__ */ z.number().check(z.nonnegative()));
const optRate = /* @__PURE__ */ z.optional(z.nullable(z.number()));
const numberRecord = /* @__PURE__ */ z.optional(z.record(z.string(), z.number()));

export const analyticsResultSchema = /* @__PURE__ */ z.looseObject({
  rangeDays: z.optional(z.number()),
  from: z.optional(z.string()),
  to: z.optional(z.string()),
  completed: optCount,
  reviewLeft: optCount,
  reviews: z.optional(
    z.looseObject({
      total: optCount,
      avgRating: optRate,
      responded: optCount,
      pending: optCount,
      ignored: optCount,
      responseRate: optRate,
      byRating: numberRecord,
    }),
  ),
  requests: z.optional(
    z.looseObject({
      total: optCount,
      sent: optCount,
      clicked: optCount,
      completed: optCount,
      reviewLeft: optCount,
      feedback: optCount,
      handoffs: optCount,
      failed: optCount,
      byChannel: numberRecord,
      clickRate: optRate,
      completionRate: optRate,
    }),
  ),
  synced: z.optional(z.looseObject({ total: optCount, avgRating: optRate, byPlatform: numberRecord })),
  reminders: z.optional(z.looseObject({ sent: optCount, completedAfter: optCount })),
  replies: z.optional(
    z.looseObject({ firstReplies: optCount, medianFirstReplySeconds: z.optional(z.nullable(z.number())) }),
  ),
  daily: z.optional(
    z.array(
      z.looseObject({
        date: z.string(),
        sent: optCount,
        completed: optCount,
        reviews: optCount,
        synced: optCount,
        avgRating: optRate,
      }),
    ),
  ),
});
export type AnalyticsResult = z.infer<typeof analyticsResultSchema>;

/** `completed` and `reviewLeft` wherever the deployment put them; null when not provided. */
export function completionFigures(data: AnalyticsResult): {
  completed: number | null;
  reviewLeft: number | null;
} {
  return {
    completed: data.requests?.completed ?? data.completed ?? null,
    reviewLeft: data.requests?.reviewLeft ?? data.reviewLeft ?? null,
  };
}

/**
 * Definitions shown next to each figure (dashboard tooltips, OpenAPI descriptions).
 * Completion counts include feedback and hand-offs; neither completed nor reviewLeft proves
 * that a review was published. Synced reviews stay apart from request counts.
 */
export const METRIC_DEFINITIONS = {
  sent: 'Requests accepted for delivery in the window (or links created). Accepted is not delivered, and not a review.',
  completed:
    'Requests sent in the window whose customer has since left private feedback or followed the hand-off to an external review site. Completed includes private feedback and hand-offs to an external review site; it is not proof a review was published.',
  reviewLeft:
    'Reviews left, as some review services name the completed requests: the same completions, and not proof a review was published.',
  completionRate: 'Completed divided by sent, for requests sent in the window.',
  clicked: 'Requests sent in the window whose review link has been opened at least once.',
  feedback: 'Requests sent in the window whose customer left a rating on the review page.',
  handoffs: 'Requests sent in the window whose customer followed the link to an external review site.',
  failed: 'Requests in the window for which every delivery failed; nothing reached the customer.',
  reviews: 'Reviews dated in the window, on every platform (collected through requests and synced).',
  avgRating: 'Mean star rating of the reviews dated in the window.',
  responseRate:
    'Response rate: the share of the reviews dated in the window that have a reply now (status responded), ignored ones counted as not answered.',
  medianFirstReply:
    'Median time to first reply: for the reviews dated in the window that were answered, the middle of the times from the review to its first reply (answered here, or on Google as synced). Not provided when none was answered.',
  synced:
    'Reviews imported from external networks (Google, Facebook, Yelp) dated in the window. They are counted apart from requests.',
  remindersSent:
    'Automatic reminders sent in the window: one per request at most, to customers who had not opened the link. Not counted as requests.',
  completedAfterReminder:
    'Of the requests reminded in the window, those completed after their reminder. Completed is not proof a review was published.',
} as const;
export type MetricName = keyof typeof METRIC_DEFINITIONS;
