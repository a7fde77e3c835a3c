import { addDays, type LocalDate, localDate, zonedInstant } from './quiet-hours.ts';

export { type LocalDate, localDate };

// A list sent over days ("at most 50 a day", docs/bulk.md): review sites filter reviews that
// arrive in a sudden burst. A day is a calendar day on one time zone's wall clock (the zone the
// dashboard server is configured with); the dashboard's preflight and the server's worker both
// count days with these functions, so the finishing date shown is the one the worker keeps to.

/** The most a daily cap may be: the longest list (a cap at or above it changes nothing). */
export const BULK_DAILY_CAP_MAX = 10_000;

/** When the day holding `ms` began on the zone's wall clock (its midnight, or the first moment after). */
export function dayStart(ms: number, timeZone: string): number {
  return zonedInstant(localDate(ms, timeZone), 0, timeZone);
}

/** When the day after the one holding `ms` begins on the zone's wall clock. */
export function nextDayStart(ms: number, timeZone: string): number {
  return zonedInstant(addDays(localDate(ms, timeZone), 1), 0, timeZone);
}

/**
 * The day the last of `rows` goes out at `cap` a day, starting today with `sentToday` already
 * sent today (0 for a new list), on the zone's wall clock. Assumes the list's pace and the API's
 * limit get through a day's cap within the day.
 */
export function finishingDay(
  rows: number,
  cap: number,
  now: number,
  timeZone: string,
  sentToday = 0,
): LocalDate {
  const today = localDate(now, timeZone);
  const leftToday = Math.max(0, cap - sentToday);
  if (rows <= leftToday) return today;
  return addDays(today, Math.ceil((rows - leftToday) / cap));
}

/** "Thu 3 Dec" (and the year when it is not this year's). */
export function formatDay(date: LocalDate, now: number, timeZone: string): string {
  const noon = Date.UTC(date.year, date.month - 1, date.day, 12);
  const sameYear = localDate(now, timeZone).year === date.year;
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  })
    .format(noon)
    .replace(',', '');
}

/** The preflight's words: "Finishes on Thu 3 Dec at 50 a day" (or "Finishes today at …"). */
export function describeFinish(rows: number, cap: number, now: number, timeZone: string): string {
  const day = finishingDay(rows, cap, now, timeZone);
  const today = localDate(now, timeZone);
  const when =
    day.year === today.year && day.month === today.month && day.day === today.day
      ? 'today'
      : `on ${formatDay(day, now, timeZone)}`;
  return `Finishes ${when} at ${cap.toLocaleString('en')} a day`;
}
