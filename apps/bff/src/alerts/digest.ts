import {
  type AnalyticsResult,
  addDays,
  formatDuration,
  type LocalDate,
  localDate,
  METRIC_DEFINITIONS,
  type OverviewFigures,
  overviewFigures,
  overviewTotals,
  zonedInstant,
} from '@review-desk/shared';
import { escapeHtml, type RenderedEmail } from './email.ts';

// The weekly digest's decisions, apart from any I/O: when it is due (Monday 08:00 on the user's
// wall clock), what it says (the figures of GET /api/v1/analytics?days=7, computed as the
// Analytics page and the Locations overview compute them), and the email.

export const DIGEST_DAYS = 7;
/** 08:00, in minutes after local midnight. */
export const DIGEST_MINUTES = 8 * 60;
/** A digest not sent within this long after its time (the BFF was down) is skipped, not sent late. */
export const DIGEST_GRACE_MS = 12 * 60 * 60_000;

export type DigestSlot = { week: string; at: number };

const iso = (d: LocalDate) =>
  `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** The Monday 08:00 of the week whose Monday is `week` (YYYY-MM-DD), in `timeZone`. */
export function slotOf(week: string, timeZone: string): DigestSlot {
  const [year, month, day] = week.split('-').map(Number) as [number, number, number];
  return { week, at: zonedInstant({ year, month, day }, DIGEST_MINUTES, timeZone) };
}

/**
 * The digest slots worth a job at `now`: the latest Monday 08:00 at or before now while still
 * within the grace period, and the next one.
 */
export function digestSlots(now: number, timeZone: string): DigestSlot[] {
  const today = localDate(now, timeZone);
  const weekday = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay();
  const monday = addDays(today, -((weekday + 6) % 7));
  const slots = [-7, 0, 7].map((offset) => slotOf(iso(addDays(monday, offset)), timeZone));
  const past = slots.filter((s) => s.at <= now).at(-1);
  const next = slots.find((s) => s.at > now) as DigestSlot;
  return past && now - past.at < DIGEST_GRACE_MS ? [past, next] : [next];
}

export type DigestLocation = {
  name: string;
  figures: OverviewFigures;
  /** This week's average rating minus the week before's; null when either has no rated review. */
  avgChange: number | null;
};

/**
 * The week before's average from the 14-day and 7-day totals: (avg14·n14 − avg7·n7)/(n14 − n7),
 * the same definition of average as the week's own figure.
 */
export function averageChange(week: AnalyticsResult, fortnight: AnalyticsResult): number | null {
  const n7 = week.reviews?.total ?? null;
  const a7 = week.reviews?.avgRating ?? null;
  const n14 = fortnight.reviews?.total ?? null;
  const a14 = fortnight.reviews?.avgRating ?? null;
  if (n7 === null || a7 === null || n14 === null || a14 === null || n7 === 0) return null;
  const before = n14 - n7;
  if (before <= 0) return null;
  return a7 - (a14 * n14 - a7 * n7) / before;
}

export function digestLocation(
  name: string,
  week: AnalyticsResult,
  fortnight: AnalyticsResult,
  pending: { total: number; ratedAboveLow: number },
): DigestLocation {
  return { name, figures: overviewFigures(week, pending), avgChange: averageChange(week, fortnight) };
}

export const formatCount = (n: number | null) => (n === null ? 'not provided' : String(n));
export const formatRate = (r: number | null) => (r === null ? '—' : `${(r * 100).toFixed(1)}%`);
export const formatAverage = (a: number | null) => (a === null ? '—' : a.toFixed(1));
export function formatChange(change: number | null): string {
  if (change === null) return '';
  const rounded = Math.round(change * 10) / 10;
  if (rounded === 0) return ' (same as the week before)';
  return ` (${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(1)} from the week before)`;
}

function lines(title: string, f: OverviewFigures, change: number | null): string[] {
  return [
    title,
    `Requests sent: ${formatCount(f.sent)}`,
    `Completion rate: ${formatRate(f.completionRate)}`,
    `New reviews: ${formatCount(f.reviews)}`,
    `Average rating: ${formatAverage(f.avgRating)}${formatChange(change)}`,
    `Low ratings (1–2★) without a response: ${formatCount(f.lowWaiting)}`,
    `Response rate: ${formatRate(f.responseRate)}`,
    ...(title === ALL ? [] : [`Median time to first reply: ${formatMedian(f.medianFirstReplySeconds)}`]),
  ];
}

const ALL = 'All locations';
const formatMedian = (seconds: number | null) => (seconds === null ? '—' : formatDuration(seconds));

export function renderDigestEmail(input: {
  week: string;
  locations: readonly DigestLocation[];
  /** Absolute URL of the Analytics page. */
  link: string;
}): RenderedEmail {
  const sections = input.locations.map((l) =>
    lines(l.name.replace(/[\r\n\t]+/g, ' '), l.figures, l.avgChange),
  );
  if (input.locations.length > 1) {
    const totals = overviewTotals(
      input.locations.map((l) => ({ slug: l.name, name: l.name, ok: true, ...l.figures })),
    );
    sections.push(lines(ALL, totals, null));
  }
  const intro = `Your week in reviews: the last ${DIGEST_DAYS} days, as the Analytics page shows them.`;
  const outro = [
    `Open Analytics: ${input.link}`,
    '',
    'You get this email because the weekly digest is on for you. Change it on the Notifications page.',
    '',
    METRIC_DEFINITIONS.responseRate,
    METRIC_DEFINITIONS.medianFirstReply,
  ];
  const text = [intro, '', ...sections.flatMap((s) => [...s, '']), ...outro].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>${escapeHtml(intro)}</p>
${sections
  .map(
    ([title, ...rest]) =>
      `<h3>${escapeHtml(title ?? '')}</h3><ul>${rest.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
  )
  .join('\n')}
<p><a href="${escapeHtml(input.link)}">Open Analytics</a></p>
<p style="color:#666;font-size:12px">${escapeHtml(outro[2] ?? '')}</p>
<p style="color:#666;font-size:12px">${escapeHtml(outro[4] ?? '')} ${escapeHtml(outro[5] ?? '')}</p>
</body></html>`;
  return { subject: `Your week in reviews (week of ${input.week})`, text, html };
}
