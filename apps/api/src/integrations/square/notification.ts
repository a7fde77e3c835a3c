import { checkPhone, customerEmailSchema, SQUARE_EVENT_MAX_AGE_MS } from '@review-desk/shared';
import type { SquareConfig } from './config.ts';
import { readCustomer } from './customers.ts';

// What a Square notification asks of the service (docs/settings.md, "Square"): a completed
// payment (payment.created or payment.updated with status COMPLETED) whose buyer can be reached
// becomes a review request. The contact comes from the payment (buyer_email_address) and, with an
// access token, from its customer (phone_number, email_address, given_name). A text goes to a
// phone when there is one, else an email to the address.

export type PaymentNotice = {
  eventId: string;
  paymentId: string;
  createdAt: number;
  status: string;
  email: string | null;
  customerId: string | null;
};

export type Decision =
  | { kind: 'stale' }
  | { kind: 'ignored'; reason: string }
  | { kind: 'unavailable'; reason: string }
  | {
      kind: 'send';
      paymentId: string;
      body: {
        customerName?: string;
        customerPhone?: string;
        customerEmail?: string;
        channel: 'sms' | 'email';
      };
    };

/** The payment a notification is about, or why it is not one (Square's payment.* shape). */
export function paymentNotice(event: unknown): PaymentNotice | string {
  const e = event as {
    type?: unknown;
    event_id?: unknown;
    created_at?: unknown;
    data?: { object?: { payment?: Record<string, unknown> } };
  } | null;
  if (!e || (e.type !== 'payment.created' && e.type !== 'payment.updated')) return 'not a payment event';
  const payment = e.data?.object?.payment;
  const createdAt = typeof e.created_at === 'string' ? Date.parse(e.created_at) : Number.NaN;
  if (!payment || typeof payment.id !== 'string' || !Number.isFinite(createdAt))
    return 'a payment event without a payment';
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    eventId: String(e.event_id ?? ''),
    paymentId: payment.id,
    createdAt,
    status: String(payment.status ?? ''),
    email: text(payment.buyer_email_address),
    customerId: text(payment.customer_id),
  };
}

export async function decide(
  notice: PaymentNotice,
  now: number,
  square: { config: SquareConfig; accessToken: string | null; automaticSends: boolean },
): Promise<Decision> {
  if (notice.createdAt < now - SQUARE_EVENT_MAX_AGE_MS) return { kind: 'stale' };
  if (notice.status !== 'COMPLETED')
    return { kind: 'ignored', reason: `the payment is ${notice.status || 'not completed'}` };
  if (!square.automaticSends) return { kind: 'ignored', reason: 'automatic sends from Square are off' };
  let phone: string | null = null;
  let email = notice.email;
  let name: string | null = null;
  if (notice.customerId && square.accessToken) {
    const customer = await readCustomer(square.config, square.accessToken, notice.customerId);
    if ('unavailable' in customer) return { kind: 'unavailable', reason: customer.unavailable };
    if ('found' in customer) {
      phone = customer.found.phone;
      email = customer.found.email ?? email;
      name = customer.found.givenName;
    }
  }
  const checkedPhone = phone ? checkPhone(phone) : null;
  const checkedEmail = email ? customerEmailSchema.safeParse(email) : null;
  const body = checkedPhone?.ok
    ? { customerPhone: checkedPhone.e164, channel: 'sms' as const }
    : checkedEmail?.success
      ? { customerEmail: checkedEmail.data, channel: 'email' as const }
      : null;
  if (!body) return { kind: 'ignored', reason: 'the payment has no phone or email to reach the customer' };
  return { kind: 'send', paymentId: notice.paymentId, body: name ? { ...body, customerName: name } : body };
}
