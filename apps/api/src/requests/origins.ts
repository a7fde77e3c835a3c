import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Queryable } from '@review-desk/server/db/types';
import { refuseUnlessWritten } from '../store/refusals.ts';

// Where a request came from (migrations/001): the caller's externalId — one request per business
// and id, whatever arrives twice — and, for an automatic request, the source its contact came from.
// The send claims the id by one INSERT … ON CONFLICT DO NOTHING in its reservation: a second send
// with the same id writes nothing and is refused by that statement (`already_requested`), then
// answered with the request the first one made.

export const REQUESTS_MIGRATIONS = migrationsBeside(import.meta.url, 'requests');

export type Origin = {
  externalId: string | null;
  /** An automatic request's source (`square`) and that source's id of what it followed. */
  source: { name: string; id: string } | null;
};

export type OriginRow = {
  request_id: string;
  business_id: number;
  external_id: string | null;
  source: string | null;
  source_id: string | null;
  token: string;
  created_at: number;
};

const CLAIM_SQL = `INSERT INTO request_origins
  (request_id, business_id, external_id, source, source_id, token, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (business_id, external_id) DO NOTHING RETURNING request_id`;

export function originStore(db: Queryable) {
  const claim = refuseUnlessWritten(db, 'already_requested', CLAIM_SQL);
  const byExternal = db.prepare('SELECT * FROM request_origins WHERE business_id = $1 AND external_id = $2');
  const byRequest = db.prepare('SELECT * FROM request_origins WHERE request_id = $1');
  const sourced = db.prepare(
    'SELECT count(*) AS n FROM request_origins WHERE business_id = $1 AND source = $2',
  );
  return {
    /** A send's check: rejects with a Refused (`already_requested`) when the externalId is taken. */
    claim(
      request: { publicId: string; businessId: number; token: string; createdAt: number },
      origin: Origin,
    ): Promise<void> {
      return claim(
        request.publicId,
        request.businessId,
        origin.externalId,
        origin.source?.name ?? null,
        origin.source?.id ?? null,
        request.token,
        request.createdAt,
      );
    },
    byExternalId: (businessId: number, externalId: string) =>
      byExternal.get<OriginRow>(businessId, externalId),
    byRequest: (requestId: string) => byRequest.get<OriginRow>(requestId),
    /** The origins of a page of requests, by request id. */
    async forRequests(requestIds: readonly string[]): Promise<Map<string, OriginRow>> {
      const found = new Map<string, OriginRow>();
      if (requestIds.length === 0) return found;
      const list = requestIds.map((_, i) => `$${i + 1}`).join(', ');
      const rows = await db.all<OriginRow>(
        `SELECT * FROM request_origins WHERE request_id IN (${list})`,
        ...requestIds,
      );
      for (const row of rows) found.set(row.request_id, row);
      return found;
    },
    async countFrom(businessId: number, source: string): Promise<number> {
      return Number((await sourced.get<{ n: number }>(businessId, source))?.n ?? 0);
    },
  };
}
export type OriginStore = ReturnType<typeof originStore>;
