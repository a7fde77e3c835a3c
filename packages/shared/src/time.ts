// Lengths of time, written once: a day of UTC calendar arithmetic (roll-ups, windows, the
// frequency cap) is 86,400,000 ms everywhere; days on a business's wall clock are quiet-hours.ts'.

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
