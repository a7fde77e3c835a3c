import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Queryable } from '@review-desk/server/db/types';

// Each business's Square connection (migrations/001). Keys arrive and leave sealed.

export const SQUARE_MIGRATIONS = migrationsBeside(import.meta.url, 'square');

export type SquareRow = {
  id: string;
  business_id: number;
  signature_key: string;
  access_token: string | null;
  automatic_sends: number;
  delay_minutes: number;
  connected_at: number;
  last_event_at: number | null;
  updated_at: number;
};

const toRow = (row: SquareRow): SquareRow => ({
  ...row,
  business_id: Number(row.business_id),
  automatic_sends: Number(row.automatic_sends),
  delay_minutes: Number(row.delay_minutes),
  connected_at: Number(row.connected_at),
  last_event_at: row.last_event_at === null ? null : Number(row.last_event_at),
  updated_at: Number(row.updated_at),
});

export function squareStore(db: Queryable) {
  const byBusiness = db.prepare('SELECT * FROM square_connections WHERE business_id = $1');
  const byId = db.prepare('SELECT * FROM square_connections WHERE id = $1');
  const upsert = db.prepare(`INSERT INTO square_connections
    (id, business_id, signature_key, access_token, automatic_sends, delay_minutes, connected_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
    ON CONFLICT (business_id) DO UPDATE SET signature_key = excluded.signature_key,
      access_token = excluded.access_token, automatic_sends = excluded.automatic_sends,
      delay_minutes = excluded.delay_minutes, updated_at = excluded.updated_at
    RETURNING *`);
  const remove = db.prepare('DELETE FROM square_connections WHERE business_id = $1');
  const heard = db.prepare('UPDATE square_connections SET last_event_at = $2 WHERE id = $1');
  return {
    async of(businessId: number): Promise<SquareRow | undefined> {
      const row = await byBusiness.get<SquareRow>(businessId);
      return row && toRow(row);
    },
    async byId(id: string): Promise<SquareRow | undefined> {
      const row = await byId.get<SquareRow>(id);
      return row && toRow(row);
    },
    async save(r: {
      id: string;
      businessId: number;
      signatureKey: string;
      accessToken: string | null;
      automaticSends: boolean;
      delayMinutes: number;
      at: number;
    }): Promise<SquareRow> {
      const row = await upsert.get<SquareRow>(
        r.id,
        r.businessId,
        r.signatureKey,
        r.accessToken,
        r.automaticSends ? 1 : 0,
        r.delayMinutes,
        r.at,
      );
      return toRow(row!);
    },
    async remove(businessId: number): Promise<boolean> {
      return (await remove.run(businessId)).changes > 0;
    },
    async heard(id: string, at: number): Promise<void> {
      await heard.run(id, at);
    },
  };
}
export type SquareStore = ReturnType<typeof squareStore>;
