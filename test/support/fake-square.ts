import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocal } from './http.ts';

// A stand-in for Square, run inside the test process, speaking its documented wire shapes:
// - the Customers API's RetrieveCustomer, `GET /v2/customers/{id}` with `Authorization: Bearer
//   <access token>` and a `Square-Version` header, answering `{customer: {id, given_name,
//   family_name, email_address, phone_number, …}}`, or `{errors: [{category, code, detail}]}`
//   (401 UNAUTHORIZED, 404 NOT_FOUND); a customer can be told to hang or to fail with 500;
// - Square's side of a webhook subscription: `notify` posts an event notification (the
//   `payment.created` / `payment.updated` body of `paymentEvent`) to a notification URL, signed
//   as Square signs it: `x-square-hmacsha256-signature`, the base64 HMAC-SHA256 keyed with the
//   subscription's signature key over the notification URL followed by the raw body, beside
//   `square-initial-delivery-timestamp` and `square-retry-number`.

export type FakeCustomer = {
  id: string;
  given_name?: string;
  family_name?: string;
  email_address?: string;
  phone_number?: string;
};

export type FakeSquare = {
  url: string;
  accessToken: string;
  customers: Map<string, FakeCustomer | 'hang' | 'fail'>;
  /** Customer reads received, by id. */
  reads: string[];
  close(): Promise<void>;
};

function errors(res: ServerResponse, status: number, category: string, code: string, detail: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ errors: [{ category, code, detail }] }));
}

export async function startFakeSquare(): Promise<FakeSquare> {
  const accessToken = `EAAA${randomBytes(24).toString('base64url')}`;
  const customers = new Map<string, FakeCustomer | 'hang' | 'fail'>();
  const reads: string[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/v2\/customers\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !match)
      return errors(res, 404, 'INVALID_REQUEST_ERROR', 'NOT_FOUND', 'No such route.');
    if (req.headers.authorization !== `Bearer ${accessToken}`)
      return errors(
        res,
        401,
        'AUTHENTICATION_ERROR',
        'UNAUTHORIZED',
        'This request could not be authorized.',
      );
    if (!req.headers['square-version'])
      return errors(res, 400, 'INVALID_REQUEST_ERROR', 'INVALID_VALUE', 'Square-Version header missing.');
    const id = decodeURIComponent(match[1] as string);
    reads.push(id);
    const customer = customers.get(id);
    if (customer === 'hang') return; // never answered
    if (customer === 'fail')
      return errors(res, 500, 'API_ERROR', 'INTERNAL_SERVER_ERROR', 'Something went wrong.');
    if (!customer) return errors(res, 404, 'INVALID_REQUEST_ERROR', 'NOT_FOUND', `Customer ${id} not found.`);
    const at = new Date().toISOString();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ customer: { created_at: at, updated_at: at, ...customer } }));
  };
  const server = http.createServer(handle);
  const url = await listenLocal(server);
  return {
    url,
    accessToken,
    customers,
    reads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A payment notification as Square sends it (payment.updated unless told otherwise). */
export function paymentEvent(options: {
  paymentId: string;
  status?: string;
  email?: string;
  customerId?: string;
  createdAt?: string;
  type?: 'payment.created' | 'payment.updated';
}) {
  const at = options.createdAt ?? new Date().toISOString();
  return {
    merchant_id: 'ML8NRGKW8N2X4',
    type: options.type ?? 'payment.updated',
    event_id: randomUUID(),
    created_at: at,
    data: {
      type: 'payment',
      id: options.paymentId,
      object: {
        payment: {
          id: options.paymentId,
          created_at: at,
          updated_at: at,
          amount_money: { amount: 4200, currency: 'USD' },
          total_money: { amount: 4200, currency: 'USD' },
          status: options.status ?? 'COMPLETED',
          source_type: 'CARD',
          location_id: 'L88917AVBK2S5',
          order_id: `ord_${options.paymentId}`,
          ...(options.email ? { buyer_email_address: options.email } : {}),
          ...(options.customerId ? { customer_id: options.customerId } : {}),
          version_token: randomBytes(12).toString('base64url'),
        },
      },
    },
  };
}

export function squareSignatureOf(signatureKey: string, notificationUrl: string, body: string): string {
  return createHmac('sha256', signatureKey)
    .update(notificationUrl + body)
    .digest('base64');
}

/**
 * Posts a signed notification to `notificationUrl`. `change` alters what is sent after it was
 * signed (a forged signature, a body changed by one byte); `postTo` posts elsewhere than the
 * signed URL (a proxy's address), for tests of the URL's part in the signature.
 */
export async function notify(
  notificationUrl: string,
  signatureKey: string,
  event: unknown,
  change: { signature?: string; body?: (body: string) => string; postTo?: string } = {},
): Promise<{ status: number; json: { success: boolean; data?: Record<string, unknown>; code?: string } }> {
  const body = JSON.stringify(event);
  const signature = change.signature ?? squareSignatureOf(signatureKey, notificationUrl, body);
  const response = await fetch(change.postTo ?? notificationUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Square Connect v2',
      'x-square-hmacsha256-signature': signature,
      'square-initial-delivery-timestamp': new Date().toISOString(),
      'square-retry-number': '0',
    },
    body: change.body ? change.body(body) : body,
  });
  return { status: response.status, json: (await response.json()) as never };
}
