import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from '@review-desk/server/db/types';
import { createPostgresDatabase, describeEngines } from '@review-desk/server/test-support/databases';
import { DAY_MS, REVIEW_STATUSES, type ReviewStatus } from '@review-desk/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadReviews } from '../demo/load.ts';
import { openApiDatabase } from '../store/database.ts';
import type { ReviewFilter } from './paging.ts';
import { type NewReview, reviewStore } from './store.ts';

// Deep pages start at their day, found from the roll-up: every page of every filter shape, from
// either end, must be exactly the rows a sort of all of them gives, also after reviews change
// status (which moves them between the roll-up's columns) and with ties on the same instant.

const scratch = mkdtempSync(path.join(tmpdir(), 'rd-review-pages-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const START = Date.UTC(2026, 0, 1);
const REVIEWS = 3_000;

type Row = { id: number; review_at: number; status: ReviewStatus; rating: number; platform: string };

describeEngines('reviews list pages', (dialect) => {
  let db: Database;
  let rows: Row[];
  beforeAll(async () => {
    const pg = dialect === 'postgres' ? await createPostgresDatabase() : null;
    db = await openApiDatabase(
      pg ? { databaseUrl: pg.url, databasePath: '' } : { databasePath: path.join(scratch, 'api.db') },
    );
    await db.run(
      "INSERT INTO businesses (slug, name, created_at) VALUES ('b', 'B', 0), ('other', 'Other', 0)",
    );
    // Uneven days (0 to 900 reviews), runs of reviews on one instant, and another business on
    // the same days that no page may count.
    const reviews: NewReview[] = [];
    for (let i = 0; i < REVIEWS; i++) {
      const day = Math.floor((i * i) / 1_000_000) + (i % 7 === 0 ? 3 : 0);
      reviews.push(review(1, START + day * DAY_MS + (i % 500) * 1_000 * (i % 3 === 0 ? 0 : 1), i));
    }
    for (let i = 0; i < 400; i++) reviews.push(review(2, START + (i % 12) * DAY_MS, i));
    await loadReviews(db, reviews);
    rows = (
      await db.all<Row>('SELECT id, review_at, status, rating, platform FROM reviews WHERE business_id = 1')
    ).map((r) => ({ ...r, id: Number(r.id), review_at: Number(r.review_at) }));
  });
  afterAll(() => db?.close());

  const expected = (filter: ReviewFilter, offset: number, limit: number, order = 'newest') =>
    rows
      .filter(
        (r) =>
          (!filter.status || r.status === filter.status) &&
          (!filter.platform || r.platform === filter.platform) &&
          r.rating >= (filter.minRating ?? 1) &&
          r.rating <= (filter.maxRating ?? 5),
      )
      .sort((a, b) => (order === 'oldest' ? -1 : 1) * (b.review_at - a.review_at || b.id - a.id))
      .slice(offset, offset + limit)
      .map((r) => r.id);

  const FILTERS: ReviewFilter[] = [
    {},
    { status: 'pending' },
    { status: 'responded' },
    { minRating: 5 },
    { minRating: 3 },
    { status: 'ignored', minRating: 4 },
    // The inbox's shapes: a platform, an upper bound.
    { status: 'pending', platform: 'google' },
    { platform: 'direct' },
    { maxRating: 2 },
    { status: 'pending', minRating: 2, maxRating: 4 },
    { status: 'pending', platform: 'google', maxRating: 2 },
  ];

  /** Low enough for this data to reach (the default is higher on SQLite, where days cost more). */
  const ANCHOR_FROM = 1_000;

  async function expectEveryPage() {
    const store = reviewStore(db, { anchorFrom: ANCHOR_FROM });
    for (const filter of FILTERS) {
      const total = await store.total(1, filter);
      expect(total).toBe(expected(filter, 0, REVIEWS).length);
      const offsets = [
        0,
        ANCHOR_FROM - 1,
        ANCHOR_FROM,
        ANCHOR_FROM + 37,
        Math.floor(total / 2) + 11,
        total - 20,
        total - 1,
        total,
      ];
      for (const offset of offsets.filter((o) => o >= 0))
        for (const limit of [20, 100]) {
          const want = expected(filter, offset, limit);
          // From the newest end (no total), and from whichever end is nearer (with it).
          expect((await store.page(1, filter, offset, limit)).map((r) => r.id)).toEqual(want);
          expect((await store.page(1, filter, offset, limit, total)).map((r) => r.id)).toEqual(want);
          // Oldest first: the same order turned round.
          expect((await store.page(1, filter, offset, limit, total, 'oldest')).map((r) => r.id)).toEqual(
            expected(filter, offset, limit, 'oldest'),
          );
        }
    }
  }

  it('reads every page of every filter exactly as a sort of all the rows would', async () => {
    await expectEveryPage();
  });

  it('still does after reviews change status', async () => {
    const store = reviewStore(db);
    for (const r of rows.filter((_, i) => i % 5 === 0)) {
      const status = REVIEW_STATUSES[(REVIEW_STATUSES.indexOf(r.status) + 1) % REVIEW_STATUSES.length]!;
      await db.transaction(() => store.setStatus(r.id, status, status === 'responded' ? 'Thanks' : null));
      r.status = status;
    }
    await expectEveryPage();
  });
});

function review(businessId: number, reviewAt: number, i: number): NewReview {
  return {
    businessId,
    rating: 1 + ((i * 7) % 5),
    status: REVIEW_STATUSES[i % 3]!,
    authorName: `Author ${i}`,
    text: null,
    reviewAt,
    responseText: null,
    platform: i % 3 === 0 ? 'direct' : 'google',
    externalId: null,
    requestId: null,
    createdAt: reviewAt,
  };
}
