import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Queryable } from '@review-desk/server/db/types';
import type { WebhookEventType } from '@review-desk/shared';

// The webhook endpoints of each business (migrations/001). Secrets arrive and leave sealed: this
// store never sees one in the clear.

export const WEBHOOKS_MIGRATIONS = migrationsBeside(import.meta.url, 'webhooks');

export type EndpointRow = {
  id: string;
  business_id: number;
  url: string;
  events: string;
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
  state: 'active' | 'paused';
  paused_at: number | null;
  paused_reason: string | null;
  last_success_at: number | null;
  last_failure_at: number | null;
  created_at: number;
};

/** `,a,b,`: one LIKE '%,type,%' finds an event's endpoints. */
export const eventsColumn = (events: readonly string[]) => `,${events.join(',')},`;
export const eventsOf = (column: string) => column.split(',').filter(Boolean) as WebhookEventType[];

const NUMBERS = [
  'business_id',
  'previous_until',
  'paused_at',
  'last_success_at',
  'last_failure_at',
  'created_at',
] as const;
function toEndpoint(row: EndpointRow): EndpointRow {
  const out = { ...row } as Record<string, unknown>;
  for (const key of NUMBERS) if (out[key] !== null && out[key] !== undefined) out[key] = Number(out[key]);
  return out as EndpointRow;
}

export function endpointStore(db: Queryable) {
  const insert =
    db.prepare(`INSERT INTO webhook_endpoints (id, business_id, url, events, secret, state, created_at)
    SELECT $1, $2, $3, $4, $5, 'active', $6
    WHERE (SELECT count(*) FROM webhook_endpoints WHERE business_id = $2) < $7 RETURNING *`);
  const list = db.prepare('SELECT * FROM webhook_endpoints WHERE business_id = $1 ORDER BY created_at, id');
  const one = db.prepare('SELECT * FROM webhook_endpoints WHERE id = $1 AND business_id = $2');
  const byId = db.prepare('SELECT * FROM webhook_endpoints WHERE id = $1');
  const remove = db.prepare('DELETE FROM webhook_endpoints WHERE id = $1 AND business_id = $2');
  const removeDeliveries = db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = $1');
  const rotate =
    db.prepare(`UPDATE webhook_endpoints SET previous_secret = $5, previous_until = $3, secret = $4
    WHERE id = $1 AND business_id = $2 RETURNING *`);
  const resume =
    db.prepare(`UPDATE webhook_endpoints SET state = 'active', paused_at = NULL, paused_reason = NULL
    WHERE id = $1 AND business_id = $2 RETURNING *`);
  const pause = db.prepare(`UPDATE webhook_endpoints SET state = 'paused', paused_at = $2, paused_reason = $3
    WHERE id = $1 AND state = 'active' RETURNING *`);
  const succeeded = db.prepare(
    'UPDATE webhook_endpoints SET last_success_at = $2 WHERE id = $1 AND (last_success_at IS NULL OR last_success_at < $2)',
  );
  const failed = db.prepare(
    'UPDATE webhook_endpoints SET last_failure_at = $2 WHERE id = $1 AND (last_failure_at IS NULL OR last_failure_at < $2)',
  );
  const expired = db.prepare(
    'UPDATE webhook_endpoints SET previous_secret = NULL, previous_until = NULL WHERE previous_until < $1',
  );
  return {
    /** The new endpoint; undefined when the business has `max` already. */
    async create(
      e: {
        id: string;
        businessId: number;
        url: string;
        events: readonly string[];
        sealedSecret: string;
        at: number;
      },
      max: number,
    ): Promise<EndpointRow | undefined> {
      const row = await insert.get<EndpointRow>(
        e.id,
        e.businessId,
        e.url,
        eventsColumn(e.events),
        e.sealedSecret,
        e.at,
        max,
      );
      return row && toEndpoint(row);
    },
    list: async (businessId: number) => (await list.all<EndpointRow>(businessId)).map(toEndpoint),
    async get(businessId: number, id: string): Promise<EndpointRow | undefined> {
      const row = await one.get<EndpointRow>(id, businessId);
      return row && toEndpoint(row);
    },
    async byId(id: string): Promise<EndpointRow | undefined> {
      const row = await byId.get<EndpointRow>(id);
      return row && toEndpoint(row);
    },
    /** Removes the endpoint and its log; false when it is not the business's. */
    async remove(businessId: number, id: string): Promise<boolean> {
      if ((await remove.run(id, businessId)).changes === 0) return false;
      await removeDeliveries.run(id);
      return true;
    },
    /** The new secret in place, the one it replaces kept (sealed for its new place) until `previousUntil`. */
    async rotate(
      businessId: number,
      id: string,
      sealed: { secret: string; previous: string },
      previousUntil: number,
    ) {
      const row = await rotate.get<EndpointRow>(
        id,
        businessId,
        previousUntil,
        sealed.secret,
        sealed.previous,
      );
      return row && toEndpoint(row);
    },
    async resume(businessId: number, id: string) {
      const row = await resume.get<EndpointRow>(id, businessId);
      return row && toEndpoint(row);
    },
    /** Pauses an active endpoint; undefined when it was not active. */
    async pause(id: string, at: number, reason: string) {
      const row = await pause.get<EndpointRow>(id, at, reason.slice(0, 500));
      return row && toEndpoint(row);
    },
    async succeeded(id: string, at: number) {
      await succeeded.run(id, at);
    },
    async failed(id: string, at: number) {
      await failed.run(id, at);
    },
    /** Forgets the secrets whose 24 hours beside a new one are over. */
    async expireSecrets(now: number): Promise<number> {
      return (await expired.run(now)).changes;
    },
  };
}
export type EndpointStore = ReturnType<typeof endpointStore>;
