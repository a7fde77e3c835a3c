import type { Queryable } from '@review-desk/server/db/types';
import type { BusinessRow } from './businesses.ts';

export type ApiKeyRow = {
  id: string;
  business_id: number;
  key_hash: string;
  display_prefix: string;
  scopes: string;
  rate_limit_per_minute: number | null;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  rotated_to: string | null;
  last_used_at: number | null;
};

export type ApiKeyListRow = ApiKeyRow & { business_slug: string };

export function keyStore(db: Queryable) {
  const insert = db.prepare(`INSERT INTO api_keys
    (id, business_id, key_hash, display_prefix, scopes, rate_limit_per_minute, created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`);
  // Every authenticated call reads its key and the key's business: one round trip, not two.
  const withBusiness = db.prepare(`SELECT k.*, b.slug AS b_slug, b.name AS b_name,
    b.review_url AS b_review_url, b.suspended_at AS b_suspended_at, b.created_at AS b_created_at
    FROM api_keys k JOIN businesses b ON b.id = k.business_id WHERE k.key_hash = $1`);
  const byId = db.prepare('SELECT * FROM api_keys WHERE id = $1');
  const list = db.prepare(`SELECT k.*, b.slug AS business_slug FROM api_keys k
    JOIN businesses b ON b.id = k.business_id ORDER BY k.created_at, k.id`);
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL');
  const setExpires = db.prepare('UPDATE api_keys SET expires_at = $1 WHERE id = $2');
  const setRotatedTo = db.prepare('UPDATE api_keys SET rotated_to = $1 WHERE id = $2');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = $1 WHERE id = $2');

  return {
    async insert(row: {
      id: string;
      businessId: number;
      keyHash: string;
      displayPrefix: string;
      scopes: string[];
      rateLimitPerMinute: number | null;
      createdAt: number;
      expiresAt: number | null;
    }): Promise<ApiKeyRow> {
      return (await insert.get<ApiKeyRow>(
        row.id,
        row.businessId,
        row.keyHash,
        row.displayPrefix,
        row.scopes.join(','),
        row.rateLimitPerMinute,
        row.createdAt,
        row.expiresAt,
      ))!;
    },
    async byHash(hash: string): Promise<{ key: ApiKeyRow; business: BusinessRow } | undefined> {
      const row = await withBusiness.get<ApiKeyRow & Record<`b_${string}`, unknown>>(hash);
      if (!row) return undefined;
      const { b_slug, b_name, b_review_url, b_suspended_at, b_created_at, ...key } = row;
      const business = {
        id: key.business_id,
        slug: b_slug,
        name: b_name,
        review_url: b_review_url,
        suspended_at: b_suspended_at,
        created_at: b_created_at,
      } as BusinessRow;
      return { key, business };
    },
    byId: (id: string) => byId.get<ApiKeyRow>(id),
    list: () => list.all<ApiKeyListRow>(),
    async revoke(id: string, at: number): Promise<boolean> {
      return (await revoke.run(at, id)).changes > 0;
    },
    async setExpires(id: string, at: number | null): Promise<void> {
      await setExpires.run(at, id);
    },
    async setRotatedTo(id: string, to: string): Promise<void> {
      await setRotatedTo.run(to, id);
    },
    async touch(id: string, at: number): Promise<void> {
      await touch.run(at, id);
    },
  };
}
