import type { Queryable } from '@review-desk/server/db/types';
import type { Channel, RequestStatus } from '@review-desk/shared';
import { type DeliveryRequestRow, LEG_ORDER, type LegRow, statusClause, toLeg, toRequest } from './rows.ts';

// Reading requests back a page at a time (GET /api/v1/requests): the page of delivery records
// and the legs of its requests in one query.

export function deliveryReads(db: Queryable) {
  async function legsFor(requestIds: string[]): Promise<Map<string, LegRow[]>> {
    const byRequest = new Map<string, LegRow[]>();
    if (requestIds.length === 0) return byRequest;
    const list = requestIds.map((_, i) => `$${i + 1}`).join(', ');
    const rows = await db.all<LegRow>(
      `SELECT * FROM delivery_legs WHERE request_id IN (${list}) ORDER BY ${LEG_ORDER}`,
      ...requestIds,
    );
    for (const row of rows) {
      const legs = byRequest.get(row.request_id) ?? [];
      legs.push(toLeg(row));
      byRequest.set(row.request_id, legs);
    }
    return byRequest;
  }

  return {
    legsFor,

    /** Newest first, filtered by status and channel. */
    async list(
      businessId: number,
      query: {
        page: number;
        limit: number;
        status?: RequestStatus | undefined;
        channel?: Channel | undefined;
      },
    ): Promise<{ total: number; rows: DeliveryRequestRow[] }> {
      const where = ['business_id = $1'];
      const params: (string | number)[] = [businessId];
      if (query.status === 'cancelled') where.push(statusClause('cancelled', ''));
      else if (query.status) {
        params.push(query.status);
        where.push(statusClause(query.status, `$${params.length}`));
      }
      if (query.channel) {
        params.push(query.channel);
        where.push(`channel = $${params.length}`);
      }
      const clause = where.join(' AND ');
      const count = await db.get<{ n: number }>(
        `SELECT count(*) AS n FROM delivery_requests WHERE ${clause}`,
        ...params,
      );
      const rows = await db.all<DeliveryRequestRow>(
        `SELECT * FROM delivery_requests WHERE ${clause} ORDER BY created_at DESC, id DESC
         LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        ...params,
        query.limit,
        (query.page - 1) * query.limit,
      );
      return { total: Number(count?.n ?? 0), rows: rows.map(toRequest) };
    },

    /** `source`: how the customer said so, for the event an opt-out makes. */
  };
}
