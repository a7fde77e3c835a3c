import type { LegState } from '@review-desk/shared';
import { validateRequest } from 'twilio/lib/webhooks/webhooks.js';
import { receiptError } from './twilio-errors.ts';

// What Twilio's webhooks say, read without I/O: is the request Twilio's, what a status callback
// means for the leg, and whether an inbound text is an opt-out or an opt-in keyword.

/**
 * Twilio signs each webhook with the account's auth token over the URL it called and the sorted
 * form parameters (X-Twilio-Signature). The URL is the public one (PUBLIC_ORIGIN + the path and
 * query as received), so the check holds behind a proxy that rewrites the host or the scheme.
 */
export function twilioSignatureValid(
  authToken: string,
  url: string,
  signature: string | undefined,
  params: Record<string, string>,
): boolean {
  if (!signature) return false;
  return validateRequest(authToken, signature, url, params);
}

/** Twilio's MessageStatus values and the leg state each means (null: nothing to record). */
const STATUS_STATES: Record<string, LegState | null> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  // Channels with read receipts (WhatsApp): read implies delivered.
  read: 'delivered',
  partially_delivered: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  canceled: 'failed',
  // Inbound statuses never describe one of our messages.
  receiving: null,
  received: null,
};

export type TwilioReceipt = {
  messageSid: string;
  /** Twilio's own word. */
  status: string;
  state: LegState;
  errorCode: string | null;
  /** The carrier's reason in words, for undelivered and failed. */
  error: string | null;
};

const SID = /^(SM|MM)[0-9a-fA-F]{32}$/;

/** The message a webhook names (MessageSid), when it is a well-formed message SID. */
export function messageSidOf(params: Record<string, string>): string | null {
  const sid = params.MessageSid ?? params.SmsSid;
  return sid && SID.test(sid) ? sid : null;
}

/** A status callback's meaning; null when it names no message or no state we record. */
export function twilioReceipt(params: Record<string, string>): TwilioReceipt | null {
  const messageSid = messageSidOf(params);
  const status = (params.MessageStatus ?? params.SmsStatus ?? '').toLowerCase();
  if (!messageSid) return null;
  const state = STATUS_STATES[status];
  if (!state) return null;
  const errorCode = params.ErrorCode && /^[0-9]{1,6}$/.test(params.ErrorCode) ? params.ErrorCode : null;
  const failed = state === 'undelivered' || state === 'failed';
  return { messageSid, status, state, errorCode, error: failed ? receiptError(errorCode) : null };
}

/**
 * Twilio's default opt-out and opt-in keywords (any case, surrounding spaces): the same words its
 * own opt-out handling answers to, so the service and the carrier agree on who opted out.
 */
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const OPT_IN = new Set(['START', 'UNSTOP']);

export function inboundKeyword(body: string | undefined): 'opt_out' | 'opt_in' | null {
  const word = (body ?? '').trim().toUpperCase();
  if (OPT_OUT.has(word)) return 'opt_out';
  if (OPT_IN.has(word)) return 'opt_in';
  return null;
}
