import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Database, Transaction } from '@review-desk/server/db/types';
import {
  type Channel,
  FINAL_LEG_STATES,
  type LegKind,
  type LegState,
  type RequestStatus,
} from '@review-desk/shared';
import { callsBack, earlyReceipts } from './early-receipts.ts';
import { type OptOutHooks, optOutStore } from './opt-outs.ts';
import { deliveryReads } from './reads.ts';
import {
  type DeliveryRequestRow,
  FINAL_SQL,
  LEG_ORDER,
  type LegRow,
  type NewLeg,
  RANK_SQL,
  toLeg,
  toRequest,
} from './rows.ts';

// The delivery tables (component `delivery`, SQLite and PostgreSQL, in the service's database):
// each request's status and its legs as the carriers report them, and the phones that texted
// STOP. Written through packages/server's async Database; every write is one statement or one
// short transaction, never held across a carrier's answer.

export const DELIVERY_MIGRATIONS = migrationsBeside(import.meta.url, 'delivery');

export type { DeliveryRequestRow, LegRow, NewLeg } from './rows.ts';

export type ReceiptResult = 'changed' | 'unchanged' | 'held' | 'dropped';

/**
 * What else a delivery write must do in its own transaction: the events it reports (webhooks/,
 * wired by server.ts), so they commit with it or not at all.
 */
export type DeliveryHooks = {
  /** A receipt moved a leg to delivered, undelivered or failed. */
  legSettled?: (leg: LegRow, at: number) => Promise<void>;
  /** A phone was opted out of a business's texts: it texted STOP, or the carrier said so. */
  optedOut?: OptOutHooks['optedOut'];
};

export function deliveryStore(db: Database, hooks: DeliveryHooks = {}) {
  const insertRequest = db.prepare(`INSERT INTO delivery_requests
    (request_id, business_id, channel, status, scheduled_for, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $6)`);
  const setStatus = db.prepare(
    'UPDATE delivery_requests SET status = $2, updated_at = $3 WHERE request_id = $1',
  );
  const upsertLeg = db.prepare(`INSERT INTO delivery_legs
    (request_id, channel, business_id, provider, to_addr, sender, provider_message_id, state, error_code, error, segments, updated_at, kind)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
    ON CONFLICT (request_id, channel, kind) DO UPDATE SET provider = excluded.provider, sender = excluded.sender,
      provider_message_id = excluded.provider_message_id, state = excluded.state,
      error_code = excluded.error_code, error = excluded.error, segments = excluded.segments,
      updated_at = excluded.updated_at`);
  // Forward only: a late `sent` never undoes `delivered`, a replay changes nothing.
  const receipt =
    db.prepare(`UPDATE delivery_legs SET state = $2, error_code = $3, error = $4, updated_at = $5
    WHERE provider_message_id = $1 AND state NOT IN (${FINAL_SQL}) AND ${RANK_SQL} < $6`);
  const legByMessage = db.prepare('SELECT * FROM delivery_legs WHERE provider_message_id = $1');
  const early = earlyReceipts(db, receipt);
  const requestById = db.prepare(
    'SELECT request_id, business_id, channel, status, scheduled_for, created_at, updated_at, cancelled_at FROM delivery_requests WHERE request_id = $1 AND business_id = $2',
  );
  const legsOf = db.prepare(`SELECT * FROM delivery_legs WHERE request_id = $1 ORDER BY ${LEG_ORDER}`);
  const startSending = db.prepare(
    "UPDATE delivery_requests SET status = 'sending', updated_at = $2 WHERE request_id = $1 AND status = 'scheduled'",
  );
  const cancelHeld =
    db.prepare(`UPDATE delivery_requests SET status = 'failed', cancelled_at = $2, updated_at = $2
    WHERE request_id = $1 AND status = 'scheduled'`);
  const cancelLegs = db.prepare(`UPDATE delivery_legs SET state = 'failed', error = $2, updated_at = $3
    WHERE request_id = $1 AND kind = 'request' AND state = 'scheduled'`);
  const discardLegs = db.prepare('DELETE FROM delivery_legs WHERE request_id = $1');
  const discardRequest = db.prepare('DELETE FROM delivery_requests WHERE request_id = $1');
  const stale = db.prepare("SELECT * FROM delivery_requests WHERE status = 'sending' AND updated_at < $1");

  function writeLeg(requestId: string, businessId: number, leg: NewLeg, kind: LegKind, at: number) {
    return upsertLeg.run(
      requestId,
      leg.channel,
      businessId,
      leg.provider,
      leg.to,
      leg.sender,
      leg.providerMessageId,
      leg.state,
      leg.errorCode,
      leg.error,
      leg.segments,
      at,
      kind,
    );
  }

  /** Writes legs; a receipt that came before its leg (held) is applied at once. */
  async function writeLegs(
    tx: Transaction,
    requestId: string,
    businessId: number,
    legs: NewLeg[],
    kind: LegKind,
    at: number,
  ) {
    // The legs are written together (one round trip on PostgreSQL), each after its own lock.
    await Promise.all(
      legs.map(async (leg) => {
        const id = leg.providerMessageId && callsBack(leg.provider) ? leg.providerMessageId : null;
        if (id) await early.lock(tx, id);
        await writeLeg(requestId, businessId, leg, kind, at);
        if (id) await early.settle(tx, id);
      }),
    );
  }

  return {
    ...optOutStore(db, hooks),
    db,

    /** A request's record; with its legs, when the carriers already answered (one transaction). */
    async createRequest(r: {
      requestId: string;
      businessId: number;
      channel: Channel;
      status: RequestStatus;
      scheduledFor: number | null;
      at: number;
      legs?: NewLeg[];
    }): Promise<void> {
      const row = () =>
        insertRequest.run(r.requestId, r.businessId, r.channel, r.status, r.scheduledFor, r.at);
      const legs = r.legs;
      if (!legs) await row();
      else
        await db.transaction(async (tx) => {
          await Promise.all([row(), writeLegs(tx, r.requestId, r.businessId, legs, 'request', r.at)]);
        });
    },

    /** Records the legs as the carriers answered and the request's status, in one transaction. */
    async recordLegs(
      requestId: string,
      businessId: number,
      legs: NewLeg[],
      status: RequestStatus,
      at: number,
    ) {
      await db.transaction(async (tx) => {
        await writeLegs(tx, requestId, businessId, legs, 'request', at);
        await setStatus.run(requestId, status, at);
      });
    },

    /**
     * The reminder's legs, beside the send's: the request's status stays what the send made it
     * (the reminder is part of the same request, not a new one).
     */
    async recordReminderLegs(requestId: string, businessId: number, legs: NewLeg[], at: number) {
      await db.transaction((tx) => writeLegs(tx, requestId, businessId, legs, 'reminder', at));
    },

    /** The legs of the business's reply to the customer's review, beside the send's (kind `reply`). */
    async recordReplyLegs(requestId: string, businessId: number, legs: NewLeg[], at: number) {
      await db.transaction((tx) => writeLegs(tx, requestId, businessId, legs, 'reply', at));
    },

    async setStatus(requestId: string, status: RequestStatus, at: number): Promise<void> {
      await setStatus.run(requestId, status, at);
    },

    /** A carrier's receipt for one message: moves its leg forward, never back. */
    async applyReceipt(
      providerMessageId: string,
      state: LegState,
      errorCode: string | null,
      error: string | null,
      at: number,
    ): Promise<ReceiptResult> {
      const receipt = { state, errorCode, error, at };
      const settled = hooks.legSettled;
      if (!settled || !FINAL_LEG_STATES.includes(state)) return early.receive(providerMessageId, receipt);
      return db.transaction(async () => {
        const result = await early.receive(providerMessageId, receipt);
        const leg = result === 'changed' ? await legByMessage.get<LegRow>(providerMessageId) : undefined;
        if (leg) await settled(toLeg(leg), at);
        return result;
      });
    },

    async legByMessage(providerMessageId: string): Promise<LegRow | undefined> {
      const row = await legByMessage.get<LegRow>(providerMessageId);
      return row && toLeg(row);
    },

    async request(businessId: number, requestId: string): Promise<DeliveryRequestRow | undefined> {
      const row = await requestById.get<DeliveryRequestRow>(requestId, businessId);
      return row && toRequest(row);
    },

    async legs(requestId: string): Promise<LegRow[]> {
      return (await legsOf.all<LegRow>(requestId)).map(toLeg);
    },

    ...deliveryReads(db),

    /** A held request's time came: marks it being sent; false when it no longer waits. */
    async startSending(requestId: string, at: number): Promise<boolean> {
      return (await startSending.run(requestId, at)).changes > 0;
    },

    /** Cancels a request still held (false when it no longer waits); its legs say why nothing left. */
    async cancelHeld(requestId: string, at: number): Promise<boolean> {
      if ((await cancelHeld.run(requestId, at)).changes === 0) return false;
      await cancelLegs.run(requestId, 'Cancelled before its time: not sent.', at);
      return true;
    },

    /** Forgets a request refused for its contact (see requests.discard in the service's store). */
    async discard(requestId: string): Promise<void> {
      await db.transaction(async () => {
        await discardLegs.run(requestId);
        await discardRequest.run(requestId);
      });
    },

    /** Requests left `sending` by a process that stopped mid-delivery. */
    async staleSending(before: number): Promise<DeliveryRequestRow[]> {
      return (await stale.all<DeliveryRequestRow>(before)).map(toRequest);
    },
  };
}
export type DeliveryStore = ReturnType<typeof deliveryStore>;
