import { DAY_MS } from './time.ts';
import { z } from './zod.ts';

// Sending hours: an SMS or email asked for outside a business's window (default 08:00–21:00 in
// its time zone) is held and sent when the window next opens (docs/api.md, "Quiet hours"). The
// arithmetic is done with Intl, whose zone data follows daylight-saving changes: 08:00 is 08:00
// on the wall clock whatever the offset that day.

export const QUIET_HOURS_DEFAULT = '08:00-21:00';
export const QUIET_HOURS_OFF = 'off';
export const TIME_ZONE_DEFAULT = 'UTC';

/** Minutes after local midnight: the window is [start, end); start > end wraps past midnight. */
export type SendWindow = { start: number; end: number };

const HHMM = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;
const WINDOW = /^\s*([0-9]{2}:[0-9]{2})\s*[-–]\s*([0-9]{2}:[0-9]{2})\s*$/;

export function parseClockTime(text: string): number | null {
  const match = HHMM.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

export function formatClockTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * `08:00-21:00` → the window; `off` → null (send at any hour). Throws a RangeError with a message
 * fit to follow the variable's name.
 */
export function parseSendWindow(text: string): SendWindow | null {
  if (text.trim().toLowerCase() === QUIET_HOURS_OFF) return null;
  const match = WINDOW.exec(text);
  const start = match ? parseClockTime(match[1] as string) : null;
  const end = match ? parseClockTime(match[2] as string) : null;
  if (start === null || end === null) {
    throw new RangeError('must be the sending window as HH:MM-HH:MM (24-hour, e.g. 08:00-21:00), or off');
  }
  if (start === end)
    throw new RangeError('must be a window with different opening and closing times, or off');
  return { start, end };
}

export function formatSendWindow(window: SendWindow | null): string {
  return window ? `${formatClockTime(window.start)}-${formatClockTime(window.end)}` : QUIET_HOURS_OFF;
}

export function isValidTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const sendWindowTextSchema = /* @__PURE__ */ z.pipe(
  z.string(),
  z.transform((text: string, ctx) => {
    try {
      return parseSendWindow(text);
    } catch (error) {
      ctx.issues.push({ code: 'custom', message: (error as Error).message, input: text });
      return z.NEVER;
    }
  }),
);

export const timeZoneSchema = /* @__PURE__ */ z.string().check(
  z.refine(isValidTimeZone, {
    error: 'must be an IANA time zone such as Europe/London or America/New_York',
  }),
);

type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallTime(ms: number, timeZone: string): WallTime {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size > 500) formatters.clear();
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year as number,
    month: parts.month as number,
    day: parts.day as number,
    hour: parts.hour as number,
    minute: parts.minute as number,
    second: parts.second as number,
  };
}

export type LocalDate = { year: number; month: number; day: number };

/** The calendar date of an instant on the zone's wall clock. */
export function localDate(ms: number, timeZone: string): LocalDate {
  const { year, month, day } = wallTime(ms, timeZone);
  return { year, month, day };
}

/** The calendar date `days` after `date` (before it when negative). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The zone's offset from UTC at that instant, in ms (whole seconds). */
function offsetAt(ms: number, timeZone: string): number {
  const wall = wallTime(ms, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

function sameWall(ms: number, timeZone: string, y: number, mo: number, d: number, minutes: number) {
  const wall = wallTime(ms, timeZone);
  return (
    wall.year === y &&
    wall.month === mo &&
    wall.day === d &&
    wall.hour * 60 + wall.minute === minutes &&
    wall.second === 0
  );
}

/**
 * The instant the wall clock of `timeZone` reads `minutes` past midnight on that local date. When
 * the time happens twice (clocks go back) the first; when it never happens (clocks go forward
 * over it) the moment the clocks jump past it.
 */
export function zonedInstant(date: LocalDate, minutes: number, timeZone: string): number {
  const naive = Date.UTC(date.year, date.month - 1, date.day, Math.floor(minutes / 60), minutes % 60);
  // The offset may differ on either side of the time sought: try both.
  const before = offsetAt(naive - DAY_MS / 2, timeZone);
  const after = offsetAt(naive + DAY_MS / 2, timeZone);
  const candidates = [naive - before, naive - after].sort((a, b) => a - b);
  const real = candidates.filter((t) => sameWall(t, timeZone, date.year, date.month, date.day, minutes));
  if (real.length > 0) return real[0] as number;
  // Skipped by a forward jump: find the first instant whose wall clock is past it.
  let low = candidates[0] as number;
  let high = candidates[1] as number;
  const target = naive;
  const wallAsUtc = (t: number) => {
    const w = wallTime(t, timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  };
  while (high - low > 1000) {
    const mid = low + Math.floor((high - low) / 2000) * 1000;
    if (wallAsUtc(mid) >= target) high = mid;
    else low = mid;
  }
  return high;
}

function inWindow(minutes: number, window: SendWindow): boolean {
  return window.start < window.end
    ? minutes >= window.start && minutes < window.end
    : minutes >= window.start || minutes < window.end;
}

/**
 * When a message asked for at `now` may be sent: `now` itself inside the window (or with no
 * window), else the window's next opening on the business's wall clock.
 */
export function nextAllowedSendTime(now: number, window: SendWindow | null, timeZone: string): number {
  if (!window) return now;
  const wall = wallTime(now, timeZone);
  const minutes = wall.hour * 60 + wall.minute;
  if (inWindow(minutes, window)) return now;
  // Outside: the opening is later today, unless today's opening has passed (then tomorrow's).
  const today = { year: wall.year, month: wall.month, day: wall.day };
  return zonedInstant(minutes < window.start ? today : addDays(today, 1), window.start, timeZone);
}

/**
 * "08:00 today", "08:00 tomorrow" or "08:00 on Fri 27 Nov", on the business's wall clock: the
 * words the send result and the request list use for a held message.
 */
export function describeSendTime(at: number, now: number, timeZone: string): string {
  const when = wallTime(at, timeZone);
  const today = wallTime(now, timeZone);
  const clock = formatClockTime(when.hour * 60 + when.minute);
  const dayNumber = (w: WallTime) => Date.UTC(w.year, w.month - 1, w.day) / DAY_MS;
  const days = dayNumber(when) - dayNumber(today);
  if (days === 0) return `${clock} today`;
  if (days === 1) return `${clock} tomorrow`;
  const date = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  }).format(at);
  return `${clock} on ${date.replace(',', '')}`;
}
