// Calendar arithmetic in UTC, shared by the roll-ups and the analytics window.

import { DAY_MS } from '@review-desk/shared';

/** UTC day number (days since 1970-01-01) of a timestamp in ms. */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

const dates = new Map<number, string>();
/** 'YYYY-MM-DD' of a UTC day number (memoised: analytics asks for the same 365 days each time). */
export function dayToDate(day: number): string {
  let date = dates.get(day);
  if (date === undefined) {
    date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (dates.size > 20_000) dates.clear();
    dates.set(day, date);
  }
  return date;
}

/** 'YYYY-MM' of a timestamp: the calendar month of the sending allowance. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}
