import { type AnalyticsResult, METRIC_DEFINITIONS, type MetricName } from '@review-desk/shared/analytics';
import { DAYS_DEFAULT, DAYS_MAX, DAYS_MIN, RATING_MAX, RATING_MIN } from '@review-desk/shared/limits';

// What the Analytics page shows, derived from whatever the deployment sent. A figure the API did
// not send is "missing" (shown as "not provided by this API"), never 0; a rate the API sent as
// null (nothing to divide by) is "none".

export type Figure = { kind: 'value'; value: number } | { kind: 'none' } | { kind: 'missing' };
export type FigureFormat = 'count' | 'percent' | 'rating';

function figure(value: number | null | undefined): Figure {
  if (value === undefined) return { kind: 'missing' };
  if (value === null || Number.isNaN(value)) return { kind: 'none' };
  return { kind: 'value', value };
}

/** A figure tile: the metric, its words, its definition (as the service computes it), the figure. */
function kpi(key: MetricName, label: string, value: number | null | undefined, format: FigureFormat) {
  const definition: string = METRIC_DEFINITIONS[key];
  return { key, label, definition, figure: figure(value), format };
}
export type Kpi = ReturnType<typeof kpi>;

/** Whether the service's reviewLeft figure is not simply its Completed figure again. */
function reviewLeftDiffers(data: AnalyticsResult): boolean {
  const reviewLeft = data.requests?.reviewLeft ?? data.reviewLeft;
  const completed = data.requests?.completed ?? data.completed;
  return reviewLeft !== undefined && reviewLeft !== completed;
}

export function kpis(data: AnalyticsResult): Kpi[] {
  return [
    kpi('sent', 'Requests sent', data.requests?.sent, 'count'),
    kpi('completed', 'Completed', data.requests?.completed ?? data.completed, 'count'),
    kpi('completionRate', 'Completion rate', data.requests?.completionRate, 'percent'),
    kpi('reviews', 'Reviews', data.reviews?.total, 'count'),
    kpi('avgRating', 'Average rating', data.reviews?.avgRating, 'rating'),
    kpi('synced', 'Synced reviews', data.synced?.total, 'count'),
    // Another name for Completed (docs/api.md): a tile of its own only when it says something else.
    ...(reviewLeftDiffers(data)
      ? [kpi('reviewLeft', 'Reviews left', data.requests?.reviewLeft ?? data.reviewLeft, 'count')]
      : []),
    // Reminders are an extension: shown apart, and only when the service reports them.
    ...(data.reminders
      ? [
          kpi('remindersSent', 'Reminders sent', data.reminders.sent, 'count'),
          kpi('completedAfterReminder', 'Completed after a reminder', data.reminders.completedAfter, 'count'),
        ]
      : []),
  ];
}

export type TrendRow = { date: string; sent?: number; completed?: number };

/** Daily sent vs completed; null when the API sent no daily series with either figure. */
export function trendSeries(
  data: AnalyticsResult,
): { rows: TrendRow[]; series: ('sent' | 'completed')[] } | null {
  const daily = data.daily;
  if (!daily || daily.length === 0) return null;
  const series = (['sent', 'completed'] as const).filter((key) =>
    daily.some((day) => typeof day[key] === 'number'),
  );
  if (series.length === 0) return null;
  return {
    rows: daily.map((day) => ({
      date: day.date,
      ...(typeof day.sent === 'number' ? { sent: day.sent } : {}),
      ...(typeof day.completed === 'number' ? { completed: day.completed } : {}),
    })),
    series: [...series],
  };
}

/** Reviews per star rating (a provided distribution with a star left out counts it as 0). */
export function ratingRows(data: AnalyticsResult): { rating: string; reviews: number }[] | null {
  const byRating = data.reviews?.byRating;
  if (!byRating) return null;
  const rows = [];
  for (let stars = RATING_MIN; stars <= RATING_MAX; stars++) {
    rows.push({ rating: `${stars}★`, reviews: byRating[String(stars)] ?? 0 });
  }
  return rows;
}

const CHANNEL_NAMES: Record<string, string> = { sms: 'SMS', email: 'Email', both: 'Both', link: 'Link' };

export function channelRows(data: AnalyticsResult): { channel: string; requests: number }[] | null {
  const byChannel = data.requests?.byChannel;
  if (!byChannel || Object.keys(byChannel).length === 0) return null;
  return Object.entries(byChannel).map(([channel, requests]) => ({
    channel: CHANNEL_NAMES[channel] ?? channel,
    requests,
  }));
}

/**
 * Reviews collected through requests next to synced ones, per source (synced reviews are reported
 * apart from request counts: docs/api.md, "Analytics"). "Through requests" is all reviews minus
 * synced ones, so it needs both totals.
 */
export function sourceRows(
  data: AnalyticsResult,
): { source: string; reviews: number; synced: boolean }[] | null {
  const total = data.reviews?.total;
  const synced = data.synced?.total;
  if (total === undefined || synced === undefined) return null;
  const rows = [{ source: 'Through requests', reviews: Math.max(0, total - synced), synced: false }];
  const byPlatform = data.synced?.byPlatform ?? {};
  const platforms = Object.entries(byPlatform);
  if (platforms.length > 0) {
    for (const [platform, count] of platforms) {
      rows.push({
        source: `Synced · ${platform.charAt(0).toUpperCase()}${platform.slice(1)}`,
        reviews: count,
        synced: true,
      });
    }
  } else {
    rows.push({ source: 'Synced', reviews: synced, synced: true });
  }
  return rows;
}

export const WINDOW_PRESETS = [7, 30, 90, 365] as const;

/** ?days= from the URL: default when absent, clamped to 1–365, ignored when not a number. */
export function parseDays(raw: string | null): { days: number; correction: string | null } {
  if (raw === null || raw === '') return { days: DAYS_DEFAULT, correction: null };
  if (!/^-?\d{1,15}$/.test(raw.trim())) {
    return {
      days: DAYS_DEFAULT,
      correction: `days “${raw}” is not a whole number; showing ${DAYS_DEFAULT} days`,
    };
  }
  const value = Number(raw.trim());
  const days = Math.min(DAYS_MAX, Math.max(DAYS_MIN, value));
  return {
    days,
    correction:
      days === value ? null : `days ${value} is outside ${DAYS_MIN}–${DAYS_MAX}; showing ${days} days`,
  };
}
