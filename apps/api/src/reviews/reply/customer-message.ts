import { EMAIL_OPT_OUT, SMS_OPT_OUT } from '@review-desk/shared';
import type { OutgoingMessage } from '../../delivery/provider.ts';

// The words a customer receives when the business answers the review they left through our page:
// the reply as written, signed with the business's name, and the same opt-out words every request
// carries (an SMS ends with them; an email points at the page behind the customer's own link,
// where they can opt out). Plain text, like every message the service sends.

/** The longest text message a carrier takes (Twilio: 1,600 characters). */
export const SMS_BODY_MAX = 1600;

const smsBody = (businessName: string, text: string) => `${businessName}: ${text} ${SMS_OPT_OUT}`;

/** The longest reply that fits one text message for this business (its name and the opt-out words around it). */
export function smsReplyMax(businessName: string): number {
  return SMS_BODY_MAX - smsBody(businessName, '').length;
}

export function replyMessages(input: {
  businessName: string;
  phone: string | null;
  email: string | null;
  text: string;
  reviewLink: string;
}): OutgoingMessage[] {
  const messages: OutgoingMessage[] = [];
  if (input.phone)
    messages.push({
      channel: 'sms',
      to: input.phone,
      subject: null,
      body: smsBody(input.businessName, input.text),
      reviewLink: input.reviewLink,
    });
  if (input.email)
    messages.push({
      channel: 'email',
      to: input.email,
      subject: `${input.businessName} replied to your review`,
      body: [
        input.text,
        '',
        `— ${input.businessName}`,
        '',
        `Your review: ${input.reviewLink}`,
        EMAIL_OPT_OUT,
      ].join('\n'),
      reviewLink: input.reviewLink,
    });
  return messages;
}
