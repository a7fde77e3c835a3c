// Dates and numbers in the user's locale. The service speaks ISO 8601 and UTC.

// Formatters are made on first use: each loads the browser's locale data for its kind, a cost
// (~10 ms apiece on a slow machine) a page should pay only for what it shows.
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
const dateFormat = once(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }));
const dateTimeFormat = once(
  () => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
);
const relative = once(() => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }));

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? dateFormat().format(date) : (iso ?? '—');
}

export function formatDateTime(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? dateTimeFormat().format(date) : (iso ?? '—');
}

/** "3 days ago", "yesterday", "2 hours ago". */
export function formatAgo(iso: string, now = Date.now()): string {
  const date = parse(iso);
  if (!date) return iso;
  const seconds = Math.round((date.getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative().format(seconds, 'second');
  if (abs < 3600) return relative().format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative().format(Math.round(seconds / 3600), 'hour');
  return relative().format(Math.round(seconds / 86_400), 'day');
}

export function formatPercent(share: number): string {
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/** "1 row", "1,284 rows": a count with its noun in the right number. */
export function countOf(n: number, one: string, many: string): string {
  return `${new Intl.NumberFormat(undefined).format(n)} ${n === 1 ? one : many}`;
}

export function formatNumber(value: number, maximumFractionDigits = 0): string {
  return new Intl.NumberFormat(undefined, { maximumFractionDigits }).format(value);
}
