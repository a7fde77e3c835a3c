import { describe, expect, it } from 'vitest';
import { createDirectory } from './directory.ts';
import { newWidgetId, type WidgetRow } from './store.ts';

// The directory of widget ids: an id it knows is answered from memory; an id nobody issued costs
// at most `missesPerSecond` database look-ups a second, however many a visitor makes up, and
// takes no room.

function harness(rows: { business_id: number; public_id: string }[]) {
  let clock = 0;
  let reads = 0;
  const directory = createDirectory(
    {
      all: async () => rows,
      byPublicId: async (id) => {
        reads++;
        const row = rows.find((r) => r.public_id === id);
        return row && ({ ...row, enabled: 1, created_at: 0, updated_at: 0 } as WidgetRow);
      },
    },
    { missesPerSecond: 10, now: () => clock },
  );
  return {
    directory,
    reads: () => reads,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('the widget directory', () => {
  it('answers the ids it read at start from memory', async () => {
    const known = newWidgetId();
    const h = harness([{ business_id: 4, public_id: known }]);
    await h.directory.load();
    for (let i = 0; i < 1_000; i++) expect(h.directory.find(known)).toBe(4);
    expect(h.reads()).toBe(0);
  });

  it('reads the database at most ten times a second for a flood of made-up ids, and keeps none', async () => {
    const h = harness([]);
    await h.directory.load();
    let found = 0;
    for (let second = 0; second < 5; second++) {
      for (let i = 0; i < 2_000; i++) if ((await h.directory.find(newWidgetId())) !== undefined) found++;
      h.advance(1_000);
    }
    expect(found).toBe(0);
    expect(h.reads()).toBeLessThanOrEqual(10 * 6);
    expect(h.directory.size()).toBe(0);
    // Not even one look-up for what cannot be an id.
    const before = h.reads();
    h.advance(10_000);
    expect(await h.directory.find('../../etc/passwd')).toBeUndefined();
    expect(h.reads()).toBe(before);
  });

  it('finds an id made elsewhere a moment ago, and remembers it', async () => {
    const rows: { business_id: number; public_id: string }[] = [];
    const h = harness(rows);
    await h.directory.load();
    const fresh = newWidgetId();
    rows.push({ business_id: 9, public_id: fresh });
    expect(await h.directory.find(fresh)).toBe(9);
    expect(h.directory.find(fresh)).toBe(9);
    expect(h.reads()).toBe(1);
  });
});
