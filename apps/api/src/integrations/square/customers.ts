import type { SquareConfig } from './config.ts';

// Reading a payment's customer from Square's Customers API (GET /v2/customers/{id}, Bearer access
// token with CUSTOMERS_READ): the phone, the email and the given name a review request needs.

/** The API version this service was written against (Square-Version header). */
export const SQUARE_API_VERSION = '2025-10-16';

export type SquareCustomer = { phone: string | null; email: string | null; givenName: string | null };

export type CustomerLookup =
  | { found: SquareCustomer }
  | { missing: true }
  /** Square did not answer, or not usably: the notification should come again later. */
  | { unavailable: string };

export async function readCustomer(
  config: SquareConfig,
  accessToken: string,
  customerId: string,
): Promise<CustomerLookup> {
  let response: Response;
  try {
    response = await fetch(`${config.apiBase}/v2/customers/${encodeURIComponent(customerId)}`, {
      headers: {
        authorization: `Bearer ${accessToken}`,
        'square-version': SQUARE_API_VERSION,
        accept: 'application/json',
      },
      redirect: 'manual',
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    return {
      unavailable:
        (error as Error).name === 'TimeoutError' ? 'Square did not answer in time' : 'Square is unreachable',
    };
  }
  if (response.status === 404) return { missing: true };
  if (!response.ok) return { unavailable: `Square answered ${response.status}` };
  const body = (await response.json().catch(() => null)) as {
    customer?: { phone_number?: unknown; email_address?: unknown; given_name?: unknown };
  } | null;
  const customer = body?.customer;
  if (!customer) return { unavailable: 'Square answered without a customer' };
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
  return {
    found: {
      phone: text(customer.phone_number),
      email: text(customer.email_address),
      givenName: text(customer.given_name),
    },
  };
}
