import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE, type Role } from '@review-desk/shared/bff';
import { type OutboxMessage, outboxListSchema } from '@review-desk/shared/dev';
import { checkPhone } from '@review-desk/shared/phone';
import { API_URL, BASE_URL, PASSWORD, USERS } from './support/stack.ts';

export { expect };

type Fixtures = {
  /** A page signed in as this role, in a browser context of its own. */
  signedIn: (role: Role) => Promise<Page>;
  /** The API's development outbox (messages instead of a carrier). */
  outbox: Outbox;
};

type Outbox = {
  messages(): Promise<OutboxMessage[]>;
  forRequest(requestId: string): Promise<OutboxMessage[]>;
  to(address: string): Promise<OutboxMessage[]>;
};

let phoneSeq = 0;
/**
 * A valid US number no other test uses (the frequency cap would otherwise ask for confirmation),
 * national format as a person types it. `ending` forces the last four digits (outbox fault hooks).
 */
export function uniquePhone(ending?: string): { typed: string; e164: string } {
  for (;;) {
    const middle = String(200 + ((process.pid * 7 + Date.now() + phoneSeq++ * 13) % 700));
    const last = ending ?? String(1000 + Math.floor(Math.random() * 8999));
    const typed = `415 ${middle} ${last}`;
    const check = checkPhone(`+1 ${typed}`);
    if (check.ok && (ending !== undefined || !last.endsWith('0000'))) return { typed, e164: check.e164 };
  }
}

/** Signs in through the BFF's API (cookies land in the page's context); the UI login has its own test. */
export async function signIn(page: Page, role: Role): Promise<void> {
  const response = await page.request.post(`${BASE_URL}/auth/login`, {
    data: { email: USERS[role], password: PASSWORD },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL },
  });
  expect(response.status(), `login as ${role}`).toBe(200);
}

async function outboxOf(request: APIRequestContext): Promise<Outbox> {
  const messages = async () => {
    const response = await request.get(`${API_URL}/dev/outbox.json`);
    expect(response.ok()).toBe(true);
    const body = (await response.json()) as { data: unknown };
    return outboxListSchema.parse(body.data).messages;
  };
  return {
    messages,
    forRequest: async (requestId) => (await messages()).filter((m) => m.requestId === requestId),
    to: async (address) => (await messages()).filter((m) => m.to === address),
  };
}

export const test = base.extend<Fixtures>({
  signedIn: async ({ browser }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await use(async (role) => {
      const context = await browser.newContext();
      contexts.push(context);
      const page = await context.newPage();
      await signIn(page, role);
      return page;
    });
    for (const context of contexts) await context.close();
  },
  outbox: async ({ request }, use) => {
    await use(await outboxOf(request));
  },
});
