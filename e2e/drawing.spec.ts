import type { Browser, Page } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { expect, signIn, test, uniquePhone } from './fixtures.ts';
import { expectDrawnRight, navigateInApp, screenshot, WIDTHS, type Width } from './support/drawn-pages.ts';
import { BASE_URL } from './support/stack.ts';

// Every page, as a first-time user meets it at a desk (1280×900) and on a phone (390×844): no
// form control or icon drawn oversized and no component without its stylesheet, whether the page
// is the first one opened or is reached from another page (each page's code, and the styles of
// the components it uses, arrive with it). The opened states too: dialogs, drawers, menus. Each
// state is also written as a screenshot to test-results/screens/ for a person to look at.

type PageCase = {
  path: string;
  name: string;
  /** What shows once the page is drawn with its data. */
  ready: (page: Page) => ReturnType<Page['getByRole']>;
  /** The page's opened states, each checked and photographed. */
  states?: (page: Page, check: (what: string) => Promise<void>) => Promise<void>;
};

const heading = (page: Page) => page.locator('#page-title');

/** A contact sent a request a moment ago, so a list holding it has a recent contact. */
async function sendOnce(page: Page): Promise<string> {
  const phone = uniquePhone();
  const response = await page.request.post(`${BASE_URL}/api/v1/requests/send`, {
    data: { channel: 'sms', customerPhone: phone.e164, customerName: 'Recent Guest' },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL, 'idempotency-key': crypto.randomUUID() },
  });
  expect(response.status()).toBe(200);
  return phone.e164;
}

const PAGES: PageCase[] = [
  {
    path: '/reviews',
    name: 'reviews',
    ready: (page) => page.getByTestId('review-row').first(),
    states: async (page, check) => {
      await page
        .getByRole('button', { name: /^Details of the review/ })
        .first()
        .click();
      await expect(page.getByRole('dialog', { name: 'Review details' })).toBeVisible();
      await check('review details');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog', { name: 'Review details' })).toBeHidden();
    },
  },
  {
    path: '/send',
    name: 'send',
    ready: (page) => page.getByRole('button', { name: 'Send request' }),
    states: async (page, check) => {
      await page.getByRole('button', { name: 'Send request' }).click();
      await expect(page.getByRole('textbox', { name: 'Phone number' })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      await check('send form with errors');
    },
  },
  {
    path: '/send/list',
    name: 'send-to-a-list',
    ready: (page) => page.getByLabel(/Customer list/),
    states: async (page, check) => {
      const recent = await sendOnce(page);
      const fresh = uniquePhone();
      await page.getByLabel(/Customer list/).setInputFiles({
        name: 'guests.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`Name,Phone,Email\nAna,${recent},\nBo,${fresh.e164},\nCy,,cy@example.com\n`),
      });
      await page.getByRole('button', { name: 'Check recent requests' }).click();
      await expect(page.getByTestId('preflight-recent')).toContainText('1');
      await check('list checked');
    },
  },
  { path: '/inbox', name: 'inbox', ready: (page) => page.getByTestId('inbox-row').first() },
  { path: '/requests', name: 'recent-requests', ready: (page) => page.getByTestId('send-row').first() },
  { path: '/analytics', name: 'analytics', ready: (page) => page.getByTestId('kpi-completed') },
  {
    path: '/users',
    name: 'users',
    ready: (page) => page.getByTestId('user-row').first(),
    states: async (page, check) => {
      await page
        .getByRole('button', { name: /^Locations of / })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: /^Locations of / });
      await expect(dialog.getByRole('radio').first()).toBeVisible();
      await check('user locations dialog');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await page.getByRole('button', { name: 'Add user' }).click();
      await expect(page.getByRole('dialog', { name: 'Add a user' })).toBeVisible();
      await check('add user dialog');
      await page.keyboard.press('Escape');
    },
  },
  {
    path: '/settings',
    name: 'settings',
    ready: (page) => page.getByRole('button', { name: 'Save settings' }),
  },
  {
    path: '/notifications',
    name: 'notifications',
    ready: (page) => page.getByRole('button', { name: 'Save' }),
  },
];

async function newPage(browser: Browser, width: Width): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: width.width, height: width.height } });
  const page = await context.newPage();
  await signIn(page, 'owner');
  return page;
}

test('the sign-in page is drawn right at desk and phone widths', async ({ browser }) => {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width: width.width, height: width.height } });
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectDrawnRight(page, `/login at ${width.width} px`);
    await screenshot(page, 'login', width);
    await context.close();
  }
});

test('the customer’s review page is drawn right at desk and phone widths', async ({ browser }) => {
  const owner = await newPage(browser, WIDTHS[0]);
  const created = await owner.request.post(`${BASE_URL}/api/v1/requests/send`, {
    data: { channel: 'link', customerName: 'Drawn Guest' },
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL, 'idempotency-key': crypto.randomUUID() },
  });
  expect(created.status()).toBe(200);
  const { reviewLink } = ((await created.json()) as { data: { reviewLink: string } }).data;
  await owner.context().close();
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width: width.width, height: width.height } });
    const page = await context.newPage();
    await page.goto(reviewLink);
    await expect(page.getByRole('heading', { name: /How was your visit/ })).toBeVisible();
    await expectDrawnRight(page, `the review page at ${width.width} px`);
    await screenshot(page, 'customer review page', width);
    await context.close();
  }
});

// Many page loads each on a busy machine: more time than the suite's default.
test.describe.configure({ timeout: 300_000 });
const READY = { timeout: 60_000 };

for (const item of PAGES) {
  test(`${item.path} is drawn right at desk and phone widths, opened first and after another page`, async ({
    browser,
  }) => {
    for (const width of WIDTHS) {
      // One browser per width: each load below is a new document, whose styles start from nothing.
      const page = await newPage(browser, width);
      for (const order of ['first', 'after another page'] as const) {
        const label = `${item.path} at ${width.width} px, opened ${order}`;
        if (order === 'first') {
          await page.goto(item.path);
        } else {
          const other = item.path === '/requests' ? '/send' : '/requests';
          await page.goto(other);
          await expect(heading(page)).toBeVisible(READY);
          await page.waitForLoadState('networkidle');
          await navigateInApp(page, item.path, item.ready);
        }
        await expect(item.ready(page)).toBeVisible(READY);
        await page.waitForLoadState('networkidle');
        await expectDrawnRight(page, label);
        if (order === 'first') await screenshot(page, item.name, width);
        await item.states?.(page, async (what) => {
          await expectDrawnRight(page, `${label}: ${what}`);
          if (order === 'first') await screenshot(page, `${item.name} ${what}`, width, false);
        });
      }
      await page.context().close();
    }
  });
}

test('the shell’s menus are drawn right: the account menu, and the navigation drawer on a phone', async ({
  browser,
}) => {
  for (const width of WIDTHS) {
    const page = await newPage(browser, width);
    await page.goto('/reviews');
    await expect(page.getByTestId('review-row').first()).toBeVisible();
    await page.getByRole('button', { name: /^Account:/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
    await expectDrawnRight(page, `account menu at ${width.width} px`);
    await screenshot(page, 'account menu', width, false);
    await page.keyboard.press('Escape');
    if (width.name === 'phone') {
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await expect(page.getByRole('dialog').getByRole('link', { name: 'Recent requests' })).toBeVisible();
      await expectDrawnRight(page, 'navigation drawer');
      await screenshot(page, 'navigation drawer', width, false);
    }
    await page.context().close();
  }
});
