import type { Db } from './db.ts';

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

export function keyStore(db: Db) {
  const insert = db.prepare(`INSERT INTO api_keys
    (id, business_id, key_hash, display_prefix, scopes, rate_limit_per_minute, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`);
  const byHash = db.prepare('SELECT * FROM api_keys WHERE key_hash = ?');
  const byId = db.prepare('SELECT * FROM api_keys WHERE id = ?');
  const list = db.prepare(`SELECT k.*, b.slug AS business_slug FROM api_keys k
    JOIN businesses b ON b.id = k.business_id ORDER BY k.created_at, k.id`);
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const setExpires = db.prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?');
  const setRotatedTo = db.prepare('UPDATE api_keys SET rotated_to = ? WHERE id = ?');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');

  return {
    insert(row: {
      id: string;
      businessId: number;
      keyHash: string;
      displayPrefix: string;
      scopes: string[];
      rateLimitPerMinute: number | null;
      createdAt: number;
      expiresAt: number | null;
    }): ApiKeyRow {
      return insert.get(
        row.id,
        row.businessId,
        row.keyHash,
        row.displayPrefix,
        row.scopes.join(','),
        row.rateLimitPerMinute,
        row.createdAt,
        row.expiresAt,
      ) as ApiKeyRow;
    },
    byHash(hash: string): ApiKeyRow | undefined {
      return byHash.get(hash) as ApiKeyRow | undefined;
    },
    byId(id: string): ApiKeyRow | undefined {
      return byId.get(id) as ApiKeyRow | undefined;
    },
    list(): ApiKeyListRow[] {
      return list.all() as ApiKeyListRow[];
    },
    revoke(id: string, at: number): boolean {
      return revoke.run(at, id).changes > 0;
    },
    setExpires(id: string, at: number | null): void {
      setExpires.run(at, id);
    },
    setRotatedTo(id: string, to: string): void {
      setRotatedTo.run(to, id);
    },
    touch(id: string, at: number): void {
      touch.run(at, id);
    },
  };
}
