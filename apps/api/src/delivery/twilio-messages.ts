import type { TwilioConfig } from './twilio.ts';

// When Twilio received an inbound text: its Message resource's `date_created`, read from Twilio's
// REST API (GET {TWILIO_API_BASE}/2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}.json,
// HTTP Basic auth). The inbound webhook carries no time of its own, and webhooks may arrive late,
// twice or out of order: this time is what orders a phone's STOPs and STARTs.

export type InboundMessage = { from: string; receivedAt: number };

/** The message as Twilio recorded it; null when Twilio cannot say (unreachable, unknown, unreadable). */
export async function inboundMessage(
  config: TwilioConfig,
  messageSid: string,
): Promise<InboundMessage | null> {
  const base = config.apiBase.replace(/\/+$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages/${encodeURIComponent(messageSid)}.json`;
  try {
    const reply = await fetch(url, {
      headers: {
        authorization: `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`,
        accept: 'application/json',
        'user-agent': 'review-desk',
      },
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    if (reply.status !== 200) return null;
    const message = (await reply.json()) as { from?: unknown; date_created?: unknown; direction?: unknown };
    const receivedAt =
      typeof message.date_created === 'string' ? Date.parse(message.date_created) : Number.NaN;
    if (message.direction !== 'inbound' || typeof message.from !== 'string' || !Number.isFinite(receivedAt))
      return null;
    return { from: message.from, receivedAt };
  } catch {
    return null;
  }
}
