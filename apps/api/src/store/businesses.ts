import type { Db } from './db.ts';

export type BusinessRow = {
  id: number;
  slug: string;
  name: string;
  review_url: string | null;
  suspended_at: number | null;
  created_at: number;
};

export function businessStore(db: Db) {
  const insert = db.prepare(
    'INSERT INTO businesses (slug, name, review_url, created_at) VALUES (?, ?, ?, ?) RETURNING *',
  );
  const bySlug = db.prepare('SELECT * FROM businesses WHERE slug = ?');
  const byId = db.prepare('SELECT * FROM businesses WHERE id = ?');
  const all = db.prepare('SELECT * FROM businesses ORDER BY id');
  const setSuspended = db.prepare('UPDATE businesses SET suspended_at = ? WHERE id = ?');
  const setReviewUrl = db.prepare('UPDATE businesses SET review_url = ? WHERE id = ?');

  return {
    create(input: { slug: string; name: string; reviewUrl: string | null; now: number }): BusinessRow {
      return insert.get(input.slug, input.name, input.reviewUrl, input.now) as BusinessRow;
    },
    bySlug(slug: string): BusinessRow | undefined {
      return bySlug.get(slug) as BusinessRow | undefined;
    },
    byId(id: number): BusinessRow | undefined {
      return byId.get(id) as BusinessRow | undefined;
    },
    list(): BusinessRow[] {
      return all.all() as BusinessRow[];
    },
    setSuspended(id: number, at: number | null): void {
      setSuspended.run(at, id);
    },
    setReviewUrl(id: number, url: string | null): void {
      setReviewUrl.run(url, id);
    },
  };
}
