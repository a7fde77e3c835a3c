import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { expect, test } from './fixtures.ts';
import { type HostSite, startHostSite } from './support/host-page.ts';
import { BASE_URL } from './support/stack.ts';

// The website widget as a business and its visitors meet it: the owner copies the snippet from
// Settings → Website widget onto the business's own site — another origin, with a strict
// Content-Security-Policy (Trusted Types too) and a stylesheet that restyles everything — and a
// visitor sees the reviews customers agreed to share, drawn in a shadow root, accessible, in
// light and dark, at desk and phone widths. A customer who did not tick the box never appears;
// a review hidden for a content reason is counted and said; turned off, nothing is drawn and the
// console says why; without JavaScript the link to the public page of reviews remains.

const csrf = { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL };

/** A customer leaves a review through a link request, ticking "may show it on its website" or not. */
async function customerReview(
  owner: Page,
  review: { name: string; rating: 3 | 4; comment: string; consent: boolean },
) {
  const sent = await owner.request.post(`${BASE_URL}/api/v1/requests/send`, {
    data: { channel: 'link', customerName: review.name },
    headers: { ...csrf, 'idempotency-key': crypto.randomUUID() },
  });
  expect(sent.status()).toBe(200);
  const { reviewLink } = ((await sent.json()) as { data: { reviewLink: string } }).data;
  const customer = await owner.context().newPage();
  await customer.goto(reviewLink);
  await customer.getByLabel(new RegExp(`${review.rating} stars`)).check();
  await customer.getByLabel(/Anything you would like to tell us/).fill(review.comment);
  const consent = customer.getByRole('checkbox', { name: /may show my review on its website/ });
  await expect(consent).not.toBeChecked();
  if (review.consent) await consent.check();
  await customer.getByRole('button', { name: 'Send feedback' }).click();
  await expect(customer.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  await customer.close();
}

/** The owner's Settings → Website widget, loaded. */
async function widgetSettings(owner: Page) {
  await owner.goto('/settings');
  const section = owner.getByRole('region', { name: 'Website widget' });
  // The widget's part comes after the settings' own; a busy machine takes its time.
  await expect(section.getByRole('figure', { name: 'Snippet to paste into your website' })).toBeVisible({
    timeout: 60_000,
  });
  return section;
}

/** The business's site with the snippet the owner copies from Settings → Website widget. */
async function hostSiteOf(owner: Page): Promise<HostSite> {
  const settings = await widgetSettings(owner);
  const snippet = (await settings.getByTestId('widget-snippet').textContent()) ?? '';
  const embed = settings.getByRole('link', { name: 'The widget as HTML (for an iframe)' });
  return startHostSite(snippet, (await embed.getAttribute('href')) ?? '');
}

/** A visitor's page on the host site, with the policy's violations and the console collected. */
async function visit(
  browser: Browser,
  url: string,
  options: { dark?: boolean; width?: number; axe?: boolean } = {},
) {
  const context = await browser.newContext({
    // axe injects its own script, which the site's policy (Trusted Types) would refuse; the
    // policy's own test is the first one.
    bypassCSP: options.axe === true,
    colorScheme: options.dark ? 'dark' : 'light',
    viewport: { width: options.width ?? 1280, height: options.width && options.width < 600 ? 844 : 900 },
  });
  const page = await context.newPage();
  const console: string[] = [];
  page.on('console', (message) => console.push(message.text()));
  await page.goto(url);
  return { page, console, close: () => context.close() };
}

test('a visitor of the business’s own site sees the widget under a strict CSP; consent, hiding and the switch are honoured', async ({
  browser,
  signedIn,
}) => {
  // Two customers, the owner's settings and four visits: long on a busy machine.
  test.slow();
  const owner = await signedIn('owner');
  const stamp = Date.now();
  const shown = `Shared with everyone ${stamp}`;
  const kept = `Only for the owner ${stamp}`;
  await customerReview(owner, {
    name: `Consenting Visitor${stamp}`,
    rating: 4,
    comment: shown,
    consent: true,
  });
  await customerReview(owner, { name: `Private Person${stamp}`, rating: 3, comment: kept, consent: false });

  const settings = await widgetSettings(owner);
  const snippet = (await settings.getByTestId('widget-snippet').textContent()) ?? '';
  const embedUrl = (await settings
    .getByRole('link', { name: 'The widget as HTML (for an iframe)' })
    .getAttribute('href'))!;
  const site: HostSite = await startHostSite(snippet, embedUrl);
  try {
    const visitor = await visit(browser, site.url);
    const widget = visitor.page.locator('.review-desk-widget');
    await expect(widget.getByRole('heading', { name: 'Reviews of Harbour Street Coffee' })).toBeVisible();
    await expect(
      widget.getByText(/^\d\.\d out of 5 from [\d,]+ reviews in the last 12 months$/),
    ).toBeVisible();
    await expect(widget.getByText(shown)).toBeVisible();
    await expect(widget.getByText(`Consenting V. ·`, { exact: false })).toBeVisible();
    await expect(visitor.page.getByText(kept)).toHaveCount(0);
    await expect(visitor.page.getByText(`Private P.`)).toHaveCount(0);
    // The snippet's link gave way to the widget; the page's styles did not reach inside it.
    await expect(visitor.page.locator('a[data-review-desk-fallback]')).toHaveCount(0);
    const heading = widget.getByRole('heading', { name: 'Reviews of Harbour Street Coffee' });
    await expect(heading).toHaveCSS('text-transform', 'none');
    await expect(widget.locator('.rd')).toHaveCSS('display', 'block');
    expect(visitor.console.filter((line) => /Content Security Policy|Trusted Type/i.test(line))).toEqual([]);

    // Keyboard: the list unfolds from its button, which says so.
    const more = widget.getByRole('button', { name: /^Show all \d+ reviews$/ });
    await more.focus();
    await visitor.page.keyboard.press('Enter');
    await expect(widget.getByRole('button', { name: 'Show fewer reviews' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await visitor.close();

    // The owner hides the shared review for a content reason: it goes, and the widget says so.
    const hide = settings.getByRole('button', { name: `Hide the review by Consenting V. from the website…` });
    await hide.click();
    await settings.getByLabel(/Private information about someone/).check();
    await settings.getByRole('button', { name: 'Hide this review' }).click();
    await expect(settings.getByTestId('hidden-reviews')).toContainText(shown);
    const after = await visit(browser, site.url);
    const hiddenNote = after.page
      .locator('.review-desk-widget')
      .getByText(/\d+ reviews? hidden for privacy or abuse\./);
    await expect(hiddenNote).toBeVisible();
    await expect(after.page.getByText(shown)).toHaveCount(0);
    await after.close();
    await settings.getByRole('button', { name: 'Show the review by Consenting V. again' }).click();
    await expect(
      settings.getByRole('button', { name: `Hide the review by Consenting V. from the website…` }),
    ).toBeVisible();

    // Turned off: nothing is drawn, and the console says why.
    await settings.getByRole('checkbox', { name: 'Show the widget on my website' }).uncheck();
    await expect(settings.getByTestId('widget-off')).toBeVisible();
    const off = await visit(browser, site.url);
    await expect
      .poll(() => off.console.some((line) => /turned its website widget off/.test(line)))
      .toBe(true);
    await expect(off.page.locator('.review-desk-widget')).toHaveCount(0);
    await expect(off.page.locator('a[data-review-desk-fallback]')).toHaveCount(0);
    await off.close();
  } finally {
    await owner.request.put(`${BASE_URL}/bff/widget`, { data: { enabled: true }, headers: csrf });
    await site.close();
  }
});

test('the widget is accessible and readable in light and dark, at desk and phone widths', async ({
  browser,
  signedIn,
}, testInfo) => {
  // Four visits, each with axe: long on a busy machine.
  test.slow();
  const owner = await signedIn('owner');
  const site = await hostSiteOf(owner);
  try {
    for (const dark of [false, true])
      for (const width of [1280, 390]) {
        const visitor = await visit(browser, site.url, { dark, width, axe: true });
        const widget = visitor.page.locator('.review-desk-widget');
        await expect(widget.getByRole('heading', { name: 'Reviews of Harbour Street Coffee' })).toBeVisible();
        await expect(widget.locator('.rd')).toHaveCSS(
          'background-color',
          dark ? 'rgb(22, 27, 34)' : 'rgb(255, 255, 255)',
        );
        const scheme = `${dark ? 'dark' : 'light'}, ${width}px`;
        await visitor.page.screenshot({
          path: testInfo.outputPath(`widget-${dark ? 'dark' : 'light'}-${width}.png`),
          fullPage: true,
        });
        const results = await new AxeBuilder({ page: visitor.page })
          .include('.review-desk-widget')
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
          .analyze();
        expect(
          results.violations.map((v) => `${v.id}: ${v.help}`),
          scheme,
        ).toEqual([]);
        await visitor.close();
      }
  } finally {
    await site.close();
  }
});

test('the HTML rendition in an iframe, and without JavaScript the link to the public page of reviews', async ({
  browser,
  signedIn,
}, testInfo) => {
  const owner = await signedIn('owner');
  const site = await hostSiteOf(owner);
  try {
    const framed = await visit(browser, `${site.url}/frame`);
    const frame = framed.page.frameLocator('iframe[title="Customer reviews"]');
    await expect(frame.getByRole('heading', { name: 'Reviews of Harbour Street Coffee' })).toBeVisible();
    await expect(
      frame.getByText(/^\d\.\d out of 5 from [\d,]+ reviews in the last 12 months$/),
    ).toBeVisible();
    expect(framed.console.filter((line) => /Content Security Policy|Refused/i.test(line))).toEqual([]);
    await framed.close();

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(site.url);
    await page.getByRole('link', { name: 'Reviews of Harbour Street Coffee' }).click();
    await expect(
      page.getByRole('heading', { name: 'Reviews of Harbour Street Coffee', level: 1 }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'How these reviews are chosen' })).toBeVisible();
    const publicPage = page.url();
    await context.close();

    // The public page runs no script of its own: axe (which needs one) checks it as it is.
    const checked = await visit(browser, publicPage);
    await expect(checked.page.getByRole('heading', { name: 'How these reviews are chosen' })).toBeVisible();
    await checked.page.screenshot({ path: testInfo.outputPath('public-page.png'), fullPage: true });
    const axe = await new AxeBuilder({ page: checked.page })
      .withTags(['wcag2a', 'wcag2aa', 'best-practice'])
      .analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await checked.close();
  } finally {
    await site.close();
  }
});

test('Settings → Website widget is accessible in light and dark, at desk and phone widths', async ({
  signedIn,
}, testInfo) => {
  test.slow();
  const owner = await signedIn('owner');
  const section = await widgetSettings(owner);
  for (const colorScheme of ['light', 'dark'] as const)
    for (const width of [1280, 390]) {
      await owner.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await owner.emulateMedia({ colorScheme });
      await expect(owner.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      await section
        .getByRole('button', { name: /^Hide the review by .+ from the website…$/ })
        .first()
        .click();
      const why = section.getByRole('radiogroup', { name: /^Why hide the review by/ });
      await expect(why).toBeVisible();
      await why.scrollIntoViewIfNeeded();
      await owner.screenshot({ path: testInfo.outputPath(`settings-widget-${colorScheme}-${width}.png`) });
      const results = await new AxeBuilder({ page: owner })
        .include('section[aria-labelledby="website-widget-title"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.help}`),
        `${colorScheme}, ${width}px`,
      ).toEqual([]);
      await section.getByRole('button', { name: 'Cancel' }).click();
    }
});
