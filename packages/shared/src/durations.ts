// A span of time in the words the dashboard and the digest use: the median time to first reply,
// how long a review has waited. Rounded down to what a person reads at a glance.

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "under a minute", "12 min", "3 h 5 min", "2 days 3 h", "40 days". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < MINUTE) return 'under a minute';
  if (s < HOUR) return `${Math.floor(s / MINUTE)} min`;
  if (s < DAY) {
    const minutes = Math.floor((s % HOUR) / MINUTE);
    return `${Math.floor(s / HOUR)} h${minutes > 0 ? ` ${minutes} min` : ''}`;
  }
  const days = Math.floor(s / DAY);
  const hours = Math.floor((s % DAY) / HOUR);
  return days >= 7 || hours === 0 ? plural(days, 'day') : `${plural(days, 'day')} ${hours} h`;
}

/** How long something has waited since `since` (ms) at `now`: "waiting 3 days". */
export function waitingFor(since: number, now: number): string {
  const seconds = (now - since) / 1000;
  if (seconds < DAY) return `waiting ${formatDuration(seconds)}`;
  return `waiting ${plural(Math.floor(seconds / DAY), 'day')}`;
}
