import { withNumbers } from '@review-desk/server/db/rows';
import {
  type Channel,
  FINAL_LEG_STATES,
  LEG_STATE_RANK,
  type LegChannel,
  type LegKind,
  type LegState,
  type RequestStatus,
} from '@review-desk/shared';

// The delivery tables' rows as the stores read them (numbers from either engine made numbers), and
// the SQL pieces that order legs and keep receipts moving forward.

export type DeliveryRequestRow = {
  request_id: string;
  business_id: number;
  channel: Channel;
  status: RequestStatus;
  scheduled_for: number | null;
  created_at: number;
  updated_at: number;
  /** A held request cancelled before its time (stored `failed`, read back `cancelled`). */
  cancelled_at: number | null;
};

export type LegRow = {
  request_id: string;
  channel: LegChannel;
  /** `request`: a message of the send; `reminder`: the one automatic reminder's. */
  kind: LegKind;
  business_id: number;
  provider: string;
  to_addr: string;
  sender: string | null;
  provider_message_id: string | null;
  state: LegState;
  error_code: string | null;
  error: string | null;
  segments: number | null;
  updated_at: number;
};

export type NewLeg = {
  channel: LegChannel;
  provider: string;
  to: string;
  sender: string | null;
  providerMessageId: string | null;
  state: LegState;
  errorCode: string | null;
  error: string | null;
  segments: number | null;
};

/** The SQL rank of a state (LEG_STATE_RANK), so a receipt only ever moves a leg forward. */
export const RANK_SQL = `CASE state ${Object.entries(LEG_STATE_RANK)
  .map(([state, rank]) => `WHEN '${state}' THEN ${rank}`)
  .join(' ')} END`;
/** A request's legs in the order they went: the send's (SMS, then email), then the reminder's. */
export const LEG_ORDER = "CASE kind WHEN 'request' THEN 0 ELSE 1 END, channel DESC";
export const FINAL_SQL = FINAL_LEG_STATES.map((s) => `'${s}'`).join(', ');

export const toRequest = (row: DeliveryRequestRow): DeliveryRequestRow => {
  const request = withNumbers(row, [
    'business_id',
    'scheduled_for',
    'created_at',
    'updated_at',
    'cancelled_at',
  ]);
  return request.cancelled_at === null || request.cancelled_at === undefined
    ? { ...request, cancelled_at: null }
    : { ...request, status: 'cancelled' };
};

/** The WHERE of a status filter: `cancelled` is stored as `failed` with its time. */
export function statusClause(status: RequestStatus, param: string): string {
  if (status === 'cancelled') return 'cancelled_at IS NOT NULL';
  if (status === 'failed') return `status = ${param} AND cancelled_at IS NULL`;
  return `status = ${param}`;
}

export const toLeg = (row: LegRow): LegRow => withNumbers(row, ['business_id', 'segments', 'updated_at']);
