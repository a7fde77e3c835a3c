import type { OutgoingMessage } from './provider.ts';

// The words a customer receives. Plain text only: SMS has no markup and a text email cannot carry
// an injected link. Every message contains the review link and says how to opt out.

export function composeMessages(input: {
  channel: 'sms' | 'email' | 'both';
  businessName: string;
  customerName: string | null;
  phone: string | null;
  email: string | null;
  reviewLink: string;
}): OutgoingMessage[] {
  const greeting = input.customerName ? `Hi ${input.customerName}, thanks` : 'Thanks';
  const messages: OutgoingMessage[] = [];
  if ((input.channel === 'sms' || input.channel === 'both') && input.phone) {
    messages.push({
      channel: 'sms',
      to: input.phone,
      subject: null,
      body: `${greeting} for choosing ${input.businessName}! How did we do? ${input.reviewLink}`,
      reviewLink: input.reviewLink,
    });
  }
  if ((input.channel === 'email' || input.channel === 'both') && input.email) {
    messages.push({
      channel: 'email',
      to: input.email,
      subject: `How was your visit to ${input.businessName}?`,
      body: [
        `${greeting} for choosing ${input.businessName}.`,
        '',
        'Would you tell us how it went? It takes a minute:',
        input.reviewLink,
        '',
        'Every answer is read, good or bad. If you would rather not hear from us again, the same page lets you opt out.',
      ].join('\n'),
      reviewLink: input.reviewLink,
    });
  }
  return messages;
}
