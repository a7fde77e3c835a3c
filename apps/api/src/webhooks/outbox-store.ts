import type { Queryable } from '@review-desk/server/db/types';
import type { WebhookDeliveryState } from '@review-desk/shared';

// The webhooks' outbox (migrations/001): one row per event and listening endpoint, written by the
// transaction that makes what the event reports, then claimed under a lease, attempted, and
// recorded. A claim takes at most `perEndpoint` rows of an endpoint, and none of the endpoints
// whose deliveries this process is still attempting: one slow endpoint holds only its own lane.

export type DeliveryRow = {
  id: number;
  endpoint_id: string;
  business_id: number;
  event_id: string;
  type: string;
  payload: string;
  state: WebhookDeliveryState;
  attempts: number;
  next_at: number | null;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  created_at: number;
};

const NUMBERS = [
  'id',
  'business_id',
  'attempts',
  'next_at',
  'last_status',
  'last_attempt_at',
  'delivered_at',
  'created_at',
];
export function toDelivery(row: DeliveryRow): DeliveryRow {
  const out = { ...row } as Record<string, unknown>;
  for (const key of NUMBERS) if (out[key] !== null && out[key] !== undefined) out[key] = Number(out[key]);
  return out as DeliveryRow;
}

// An event's deliveries: one per endpoint of the business that subscribes to its type; none when
// nobody listens (then the statement is one probe of an index).
const RECORD_SQL = `INSERT INTO webhook_deliveries
  (endpoint_id, business_id, event_id, type, payload, state, attempts, next_at, created_at)
  SELECT id, business_id, $2, $3, $4, 'pending', 0, $5, $5 FROM webhook_endpoints
  WHERE business_id = $1 AND events LIKE $6`;

// Due deliveries oldest first, at most `perEndpoint` of an endpoint, none of a busy or paused
// one. The window runs over a bounded head of the due index, not over every due row.
const CLAIM_SQL = `UPDATE webhook_deliveries SET state = 'delivering', lease_owner = $1, lease_until = $2,
    attempts = attempts + 1, last_attempt_at = $3
  WHERE id IN (
    SELECT id FROM (
      SELECT head.id, head.next_at,
        row_number() OVER (PARTITION BY head.endpoint_id ORDER BY head.next_at, head.id) AS n
      FROM (
        SELECT d.id, d.next_at, d.endpoint_id FROM webhook_deliveries d
        WHERE d.state = 'pending' AND d.next_at <= $3 AND $4 NOT LIKE '%,' || d.endpoint_id || ',%'
          AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.state = 'active')
        ORDER BY d.next_at, d.id LIMIT $7
      ) AS head
    ) AS due WHERE n <= $5 ORDER BY next_at, id LIMIT $6)
  AND state = 'pending'
  RETURNING *`;

/** How far into the due deliveries one claim looks. */
const CLAIM_HEAD = 128;

export function outboxStore(db: Queryable) {
  const record = db.prepare(RECORD_SQL);
  const listening = db.prepare(
    'SELECT 1 AS hit FROM webhook_endpoints WHERE business_id = $1 AND events LIKE $2 LIMIT 1',
  );
  const toOne = db.prepare(`INSERT INTO webhook_deliveries
    (endpoint_id, business_id, event_id, type, payload, state, attempts, next_at, created_at)
    VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $6)`);
  const claim = db.prepare(CLAIM_SQL);
  const reclaim =
    db.prepare(`UPDATE webhook_deliveries SET state = 'pending', next_at = $2, lease_owner = NULL,
    lease_until = NULL WHERE state = 'delivering' AND (lease_until < $1 OR lease_owner = $3)`);
  const owners = db.prepare(
    "SELECT DISTINCT lease_owner FROM webhook_deliveries WHERE state = 'delivering' AND lease_owner IS NOT NULL",
  );
  const settle = (set: string) =>
    db.prepare(`UPDATE webhook_deliveries SET ${set}, lease_owner = NULL, lease_until = NULL,
      last_status = $3, last_error = $4 WHERE id = $1 AND lease_owner = $2 AND state = 'delivering'`);
  const delivered = settle("state = 'delivered', delivered_at = $5");
  const retry = settle("state = 'pending', next_at = $5");
  const failed = settle("state = 'failed'");
  const page = db.prepare(`SELECT * FROM webhook_deliveries WHERE endpoint_id = $1
    ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`);
  const count = db.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1');
  const resend = db.prepare(`UPDATE webhook_deliveries SET state = 'pending', next_at = $3
    WHERE id = $1 AND endpoint_id = $2 AND state <> 'delivering' RETURNING *`);
  const one = db.prepare('SELECT * FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2');
  const purge = db.prepare(`DELETE FROM webhook_deliveries WHERE id IN
    (SELECT id FROM webhook_deliveries WHERE created_at < $1 ORDER BY created_at LIMIT $2)`);
  const pending = db.prepare(
    "SELECT count(*) AS n FROM webhook_deliveries WHERE state IN ('pending', 'delivering')",
  );

  return {
    /** An event's deliveries to the business's endpoints that subscribe to `type`; how many. */
    async record(businessId: number, event: { id: string; type: string; body: string }, at: number) {
      return (await record.run(businessId, event.id, event.type, event.body, at, `%,${event.type},%`))
        .changes;
    },
    /** Whether any endpoint of the business subscribes to `type` (before building an event). */
    async listening(businessId: number, type: string): Promise<boolean> {
      return (await listening.get(businessId, `%,${type},%`)) !== undefined;
    },
    /** A test event, to one endpoint whatever it subscribes to. */
    async recordTo(
      endpoint: { id: string; business_id: number },
      event: { id: string; type: string; body: string },
      at: number,
    ) {
      await toOne.run(endpoint.id, endpoint.business_id, event.id, event.type, event.body, at);
    },
    async claim(options: {
      owner: string;
      leaseUntil: number;
      now: number;
      busy: readonly string[];
      perEndpoint: number;
      limit: number;
    }): Promise<DeliveryRow[]> {
      const rows = await claim.all<DeliveryRow>(
        options.owner,
        options.leaseUntil,
        options.now,
        `,${options.busy.join(',')},`,
        options.perEndpoint,
        options.limit,
        CLAIM_HEAD,
      );
      return rows.map(toDelivery);
    },
    /** Deliveries whose lease ran out, or whose owner is known to be gone: due again now. */
    async reclaim(systemNow: number, now: number, goneOwner: string | null = null): Promise<number> {
      return (await reclaim.run(systemNow, now, goneOwner)).changes;
    },
    leaseOwners: async () => (await owners.all<{ lease_owner: string }>()).map((r) => r.lease_owner),
    async delivered(id: number, owner: string, status: number, at: number) {
      return (await delivered.run(id, owner, status, null, at)).changes > 0;
    },
    async retry(id: number, owner: string, status: number | null, error: string, nextAt: number) {
      return (await retry.run(id, owner, status, error.slice(0, 500), nextAt)).changes > 0;
    },
    async failed(id: number, owner: string, status: number | null, error: string) {
      return (await failed.run(id, owner, status, error.slice(0, 500))).changes > 0;
    },
    async log(endpointId: string, limit: number, offset: number) {
      const [rows, total] = await Promise.all([
        page.all<DeliveryRow>(endpointId, limit, offset),
        count.get<{ n: number }>(endpointId),
      ]);
      return { total: Number(total?.n ?? 0), rows: rows.map(toDelivery) };
    },
    async get(endpointId: string, id: number) {
      const row = await one.get<DeliveryRow>(id, endpointId);
      return row && toDelivery(row);
    },
    /** "Send again": due now, with the same webhook-id; undefined while an attempt is running. */
    async resend(endpointId: string, id: number, now: number) {
      const row = await resend.get<DeliveryRow>(id, endpointId, now);
      return row && toDelivery(row);
    },
    /** Deletes up to `batch` deliveries made before `before`; how many. */
    async purge(before: number, batch: number): Promise<number> {
      return (await purge.run(before, batch)).changes;
    },
    async unfinished(): Promise<number> {
      return Number((await pending.get<{ n: number }>())?.n ?? 0);
    },
  };
}
export type WebhookOutbox = ReturnType<typeof outboxStore>;
