import type { Channel } from './channels.ts';
import type { ReplyOutcome } from './review-reply.ts';

// What the dashboard says about a reply, decided on its state (never on its words). Honest words:
// "sent" is handed to the carrier, not read; "posted" is accepted by Google, which may take a few
// minutes to show it; "unknown" may or may not have gone out, and is never retried by itself.

export type ReplyTone = 'ok' | 'pending' | 'warning' | 'error';

const BY_CHANNEL: Record<Exclude<Channel, 'link'>, string> = {
  sms: 'by text message',
  email: 'by email',
  both: 'by text message and email',
};

function by(channel: Channel | null): string {
  return channel && channel !== 'link' ? BY_CHANNEL[channel] : 'by its channel';
}

/**
 * The sentence for a reply's outcome, and its tone. `when` writes a held reply's time in the
 * reader's terms (the dashboard's date format).
 */
export function replyOutcomeWords(
  reply: Pick<ReplyOutcome, 'action' | 'to' | 'state' | 'channel' | 'error' | 'scheduledFor'>,
  when: (iso: string) => string = (iso) => iso,
): { tone: ReplyTone; text: string } {
  const google = reply.to === 'google';
  const reason = reply.error ? ` ${reply.error}` : '';
  switch (reply.state) {
    case 'sent':
      return { tone: 'ok', text: `Sent to the customer ${by(reply.channel)}` };
    case 'scheduled':
      return {
        tone: 'pending',
        text: `Saved; it goes to the customer ${by(reply.channel)} when sending hours open${reply.scheduledFor ? ` (${when(reply.scheduledFor)})` : ''}`,
      };
    case 'opted_out':
      return { tone: 'warning', text: 'Saved, not sent: this customer opted out' };
    case 'no_contact':
      return {
        tone: 'warning',
        text: 'Saved, not sent: this customer’s request was a shared link, so there is no contact to send it to',
      };
    case 'sending':
      return { tone: 'pending', text: `Being sent to the customer ${by(reply.channel)}…` };
    case 'posting':
      return {
        tone: 'pending',
        text: reply.action === 'withdraw' ? 'Removing the reply from Google…' : 'Posting on Google…',
      };
    case 'posted':
      return { tone: 'ok', text: 'Posted on Google — it may take a few minutes to show there' };
    case 'withdrawn':
      return google
        ? { tone: 'ok', text: 'Removed from Google — it may take a few minutes to disappear there' }
        : {
            tone: 'ok',
            text: 'Withdrawn here. A message already sent to the customer cannot be taken back',
          };
    case 'failed':
      return google
        ? {
            tone: 'error',
            text: `${reply.action === 'withdraw' ? 'Not removed' : 'Not posted'}: Google said “${reply.error ?? 'no reason given'}”`,
          }
        : { tone: 'error', text: `Saved, not sent:${reason || ' every delivery failed'}` };
    case 'unknown':
      return google
        ? {
            tone: 'warning',
            text: 'Unknown: the answer from Google was lost, so Google may or may not have it. Check the review on Google, or try again',
          }
        : {
            tone: 'warning',
            text: 'Saved; whether it reached the customer is unknown: the service stopped while handing it over. It is not sent again by itself',
          };
  }
}
