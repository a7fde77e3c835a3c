import {
  DEFAULT_EMAIL_SUBJECT,
  DEFAULT_EMAIL_TEMPLATE,
  DEFAULT_SMS_TEMPLATE,
  type MessageTemplates,
  renderEmail,
  renderSms,
} from '@review-desk/shared';
import type { OutgoingMessage } from './provider.ts';

// The words a customer receives: the business's templates (its settings, or the built-in words),
// written by the shared renderer the dashboard's preview uses. Plain text only: SMS has no
// markup and a text email cannot carry an injected link. Every message contains the review link
// (a template without one is refused) and ends with the opt-out words, which no template removes.

export const DEFAULT_TEMPLATES: MessageTemplates = {
  smsTemplate: DEFAULT_SMS_TEMPLATE,
  emailSubject: DEFAULT_EMAIL_SUBJECT,
  emailTemplate: DEFAULT_EMAIL_TEMPLATE,
};

/** A message to each contact given: the ones the request's channel messages (shared messagedContacts). */
export function composeMessages(input: {
  businessName: string;
  customerName: string | null;
  phone: string | null;
  email: string | null;
  reviewLink: string;
  templates?: MessageTemplates;
}): OutgoingMessage[] {
  const templates = input.templates ?? DEFAULT_TEMPLATES;
  const values = {
    customerName: input.customerName,
    businessName: input.businessName,
    reviewLink: input.reviewLink,
  };
  const messages: OutgoingMessage[] = [];
  if (input.phone) {
    messages.push({
      channel: 'sms',
      to: input.phone,
      subject: null,
      body: renderSms(templates, values),
      reviewLink: input.reviewLink,
    });
  }
  if (input.email) {
    const { subject, body } = renderEmail(templates, values);
    messages.push({ channel: 'email', to: input.email, subject, body, reviewLink: input.reviewLink });
  }
  return messages;
}
