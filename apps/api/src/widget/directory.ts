import { WIDGET_ID_PATTERN } from '@review-desk/shared';
import type { WidgetStore } from './store.ts';

// Which business a public widget id belongs to, in memory: every widget's id is read at start
// and each new one is added as it is made (here, and in every process through the change
// notification), so a view of an id nobody issued costs no database read. One row per business
// that ever opened its widget settings: the map grows with businesses, never with visitors.
// An id this process has not heard of (made a moment ago elsewhere, notification in flight) is
// looked up in the database, at most `missesPerSecond` times a second: a flood of made-up ids
// is answered 404 from here.

export type Directory = ReturnType<typeof createDirectory>;

export function createDirectory(
  widgets: Pick<WidgetStore, 'all' | 'byPublicId'>,
  options: { missesPerSecond?: number; now?: () => number } = {},
) {
  const rate = options.missesPerSecond ?? 10;
  const now = options.now ?? (() => performance.now());
  const ids = new Map<string, number>();
  let tokens = rate;
  let refilledAt = now();
  let lookups = 0;

  const take = (): boolean => {
    const at = now();
    tokens = Math.min(rate, tokens + ((at - refilledAt) / 1000) * rate);
    refilledAt = at;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };

  return {
    /** Reads every widget's id (at start, and after a lost notification connection). */
    async load(): Promise<void> {
      const rows = await widgets.all();
      ids.clear();
      for (const row of rows) ids.set(row.public_id, row.business_id);
    },
    add(publicId: string, businessId: number): void {
      ids.set(publicId, businessId);
    },
    /** The business of a public id this process knows, from memory only. */
    known: (publicId: string): number | undefined => ids.get(publicId),
    /** The business of a public id: at once when known, otherwise a bounded look-up. */
    find(publicId: string): number | undefined | Promise<number | undefined> {
      const known = ids.get(publicId);
      if (known !== undefined || !WIDGET_ID_PATTERN.test(publicId) || !take()) return known;
      lookups++;
      return widgets.byPublicId(publicId).then((row) => {
        if (row) ids.set(row.public_id, row.business_id);
        return row?.business_id;
      });
    },
    size: () => ids.size,
    /** Database look-ups made for unknown ids (for the flood's test). */
    lookups: () => lookups,
  };
}
