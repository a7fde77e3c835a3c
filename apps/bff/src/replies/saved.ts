import type { Queryable } from '@review-desk/server/db/types';
import { BUILT_IN_SAVED_REPLIES, type SavedReplies, type SavedReply } from '@review-desk/shared';

// Each location's saved replies (table saved_replies, component `replies`): replaced as a whole
// list by an owner, read by whoever answers. A location with none stored has the built-in ones.

type Row = { title: string; text: string; min_rating: number; max_rating: number };

export function createSavedReplies(db: Queryable) {
  const list = db.prepare(
    'SELECT title, text, min_rating, max_rating FROM saved_replies WHERE location = $1 ORDER BY position',
  );
  const clear = db.prepare('DELETE FROM saved_replies WHERE location = $1');
  const insert = db.prepare(`INSERT INTO saved_replies
    (location, position, title, text, min_rating, max_rating, updated_by, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`);

  return {
    async of(location: string): Promise<SavedReplies> {
      const rows = await list.all<Row>(location);
      if (rows.length === 0) return { replies: [...BUILT_IN_SAVED_REPLIES], builtIn: true };
      return {
        replies: rows.map((r) => ({
          title: r.title,
          text: r.text,
          minRating: Number(r.min_rating),
          maxRating: Number(r.max_rating),
        })),
        builtIn: false,
      };
    },
    /** The location's whole list, replaced (an empty list brings the built-in ones back). */
    async replace(location: string, replies: readonly SavedReply[], by: string, now = Date.now()) {
      await db.transaction(async () => {
        await clear.run(location);
        for (const [i, r] of replies.entries())
          await insert.run(location, i, r.title, r.text, r.minRating, r.maxRating, by, now);
      });
    },
  };
}
export type SavedRepliesStore = ReturnType<typeof createSavedReplies>;
