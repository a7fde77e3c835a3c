import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, testDatabase } from '../../test/helpers.ts';
import { createBusiness } from '../accounts/businesses.ts';
import { testConfig } from '../env.ts';
import { openStore } from '../store/index.ts';
import { ImportError, importReviews, readImportFile } from './import.ts';

describe.each(ENGINES)('importReviews (%s)', (engine) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  /** A store on a fresh database with business `b`. */
  async function setup() {
    const dir = mkdtempSync(path.join(tmpdir(), 'rd-import-db-'));
    const database = await testDatabase(engine, dir);
    const store = await openStore({ ...testConfig(), ...database.config });
    cleanups.push(async () => {
      await store.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    await createBusiness(store, { slug: 'b', name: 'B' }, Date.now());
    return store;
  }

  it('imports valid rows with defaults and skips rows already imported', async () => {
    const store = await setup();
    const rows = [
      { rating: '5', platform: 'google', review_date: '2024-05-01', external_id: 'a' },
      {
        rating: 3,
        platform: 'yelp',
        review_date: '2024-05-02T10:00:00Z',
        response_status: 'responded',
        response_text: 'Thanks',
        author_name: '',
      },
      { rating: 4, platform: 'facebook', review_date: '2024-05-03', extra: 'ignored' },
    ];
    expect(await importReviews(store, 'b', rows, Date.now())).toEqual({
      imported: 3,
      updated: 0,
      skipped: 0,
    });
    expect(await importReviews(store, 'b', rows.slice(0, 1), Date.now())).toEqual({
      imported: 0,
      updated: 0,
      skipped: 1,
    });
    const stored = await store.db.all(
      'SELECT rating, status, platform, review_at, author_name FROM reviews ORDER BY id',
    );
    expect(stored).toEqual([
      {
        rating: 5,
        status: 'pending',
        platform: 'google',
        review_at: Date.parse('2024-05-01T00:00:00Z'),
        author_name: null,
      },
      {
        rating: 3,
        status: 'responded',
        platform: 'yelp',
        review_at: Date.parse('2024-05-02T10:00:00Z'),
        author_name: null,
      },
      {
        rating: 4,
        status: 'pending',
        platform: 'facebook',
        review_at: Date.parse('2024-05-03T00:00:00Z'),
        author_name: null,
      },
    ]);
  });

  it('changes a stored review whose rating, status or reply changed since, its counters with it', async () => {
    const store = await setup();
    const row = { rating: 2, platform: 'google', review_date: '2024-05-01', external_id: 'g-1' };
    await importReviews(store, 'b', [row], Date.now());
    const answered = { ...row, rating: 4, response_status: 'responded', response_text: 'Sorry' };
    expect(await importReviews(store, 'b', [answered], Date.now())).toEqual({
      imported: 0,
      updated: 1,
      skipped: 0,
    });
    // A row that leaves the reply out keeps it; the same values again change nothing.
    expect(await importReviews(store, 'b', [{ ...row, rating: 4 }], Date.now())).toEqual({
      imported: 0,
      updated: 0,
      skipped: 1,
    });
    expect(await store.db.all('SELECT rating, status, response_text FROM reviews')).toEqual([
      { rating: 4, status: 'responded', response_text: 'Sorry' },
    ]);
    expect(await store.db.all('SELECT status, rating, n FROM review_counts WHERE n > 0')).toEqual([
      { status: 'responded', rating: 4, n: 1 },
    ]);
  });

  it('imports nothing when any row is bad, and names the rows', async () => {
    const store = await setup();
    const rows = [
      { rating: 5, platform: 'google', review_date: '2024-05-01' },
      { rating: 0, platform: 'google', review_date: '2024-05-01' },
      { rating: 5, platform: 'direct', review_date: '2024-05-01' },
      { rating: 5, platform: 'google', review_date: 'yesterday' },
      { rating: 5, platform: 'google', review_date: '2024-05-01', status: 'done' },
    ];
    await expect(importReviews(store, 'b', rows, Date.now())).rejects.toThrow(ImportError);
    try {
      await importReviews(store, 'b', rows, Date.now());
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('row 2: rating');
      expect(message).toContain('row 3: platform');
      expect(message).toContain('row 4: review_date');
      expect(message).toContain('row 5: status');
    }
    expect(await store.db.get('SELECT count(*) AS n FROM reviews')).toEqual({ n: 0 });
  });
});

describe('readImportFile', () => {
  it('reads JSON arrays, {reviews: [...]} and CSV files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rd-import-'));
    const json = path.join(dir, 'a.json');
    writeFileSync(json, JSON.stringify({ reviews: [{ rating: 5 }] }));
    expect(readImportFile(json)).toEqual([{ rating: 5 }]);
    const csv = path.join(dir, 'a.csv');
    writeFileSync(csv, '\ufeffrating,text\n5,"Good, really"\n');
    expect(readImportFile(csv)).toEqual([{ rating: '5', text: 'Good, really' }]);
    const broken = path.join(dir, 'b.json');
    writeFileSync(broken, '[{');
    expect(() => readImportFile(broken)).toThrow(/not valid JSON/);
    rmSync(dir, { recursive: true, force: true });
  });
});
