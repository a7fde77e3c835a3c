import { type Channel, messagedContacts } from './channels.ts';
import { DAY_MS } from './time.ts';

// The frequency cap (docs/api.md, "Sending"): one request per contact within `capDays`. Which
// earlier sends count is written here once, for every place that asks: the service's own check
// (its SQL, apps/api requests/store.ts, is held to this function by a test), the dashboard
// server's list sends ("skip contacts sent to recently") and the send form's warnings.

/** The window's first instant: a send made at or after it counts. */
export function capWindowStart(now: number, capDays: number): number {
  return now - capDays * DAY_MS;
}

/** An earlier send as the one asking knows it: the service's request row, or the journal's entry. */
export type EarlierSend = {
  /** The service's `sending`/`sent`/`failed`, or the journal's outcome (`in_flight`, `warning`, …). */
  status: string;
  createdAt: number;
  /** Its channel, when known: a channel that does not message the contact reached nobody there. */
  channel?: Channel | undefined;
  /** The one message of two that failed, when known. */
  failedLeg?: 'sms' | 'email' | null | undefined;
};

/**
 * Whether an earlier send counts toward the cap for a new one to the same contact: it counts
 * unless it surely reached nobody — it failed outright — or, when the asker knows which of its
 * contacts is meant (`contact`) and how it went, unless its channel does not message that contact
 * (a link messages nobody) or its message there failed. One in flight, held or of unknown outcome
 * may have gone: it counts. (The journal finds a send by any of its contacts and knows its
 * outcome only: status and window decide.)
 */
export function countsTowardCap(
  earlier: EarlierSend,
  window: { now: number; capDays: number },
  contact?: 'phone' | 'email',
): boolean {
  if (window.capDays <= 0 || !Number.isFinite(earlier.createdAt)) return false;
  if (earlier.createdAt < capWindowStart(window.now, window.capDays)) return false;
  if (earlier.status === 'failed') return false;
  if (contact === undefined || earlier.channel === undefined) return true;
  const messaged = messagedContacts(earlier.channel, { phone: '', email: '' });
  return messaged[contact] !== null && earlier.failedLeg !== (contact === 'phone' ? 'sms' : 'email');
}
