import type { Queryable } from '@review-desk/server/db/types';

export type BusinessRow = {
  id: number;
  slug: string;
  name: string;
  review_url: string | null;
  suspended_at: number | null;
  created_at: number;
};

/** `changed` hears every change to a business's row, for the caches that hold it (keys.ts). */
export function businessStore(db: Queryable, changed: (id: number) => Promise<void>) {
  const insert = db.prepare(
    'INSERT INTO businesses (slug, name, review_url, created_at) VALUES ($1, $2, $3, $4) RETURNING *',
  );
  const bySlug = db.prepare('SELECT * FROM businesses WHERE slug = $1');
  const byId = db.prepare('SELECT * FROM businesses WHERE id = $1');
  const all = db.prepare('SELECT * FROM businesses ORDER BY id');
  const setSuspended = db.prepare('UPDATE businesses SET suspended_at = $1 WHERE id = $2');
  const setReviewUrl = db.prepare('UPDATE businesses SET review_url = $1 WHERE id = $2');

  return {
    async create(input: { slug: string; name: string; reviewUrl: string | null; now: number }) {
      return (await insert.get<BusinessRow>(input.slug, input.name, input.reviewUrl, input.now))!;
    },
    bySlug: (slug: string) => bySlug.get<BusinessRow>(slug),
    byId: (id: number) => byId.get<BusinessRow>(id),
    list: () => all.all<BusinessRow>(),
    async setSuspended(id: number, at: number | null): Promise<void> {
      await setSuspended.run(at, id);
      await changed(id);
    },
    async setReviewUrl(id: number, url: string | null): Promise<void> {
      await setReviewUrl.run(url, id);
      await changed(id);
    },
  };
}
