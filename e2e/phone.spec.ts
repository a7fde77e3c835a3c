import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { WIDTHS } from './support/drawn-pages.ts';

// On a phone (390×844): review cards that say each thing once, toasts that leave the header
// alone, and Settings that ask before unsaved edits are lost (at desk width too).

const PHONE = WIDTHS[1];

/** The header's box and a box below it do not overlap. */
async function expectBelowHeader(page: Page, selector: string) {
  const header = (await page.getByRole('banner').boundingBox())!;
  const box = (await page.locator(selector).first().boundingBox())!;
  const overlaps = box.y < header.y + header.height && box.y + box.height > header.y;
  expect(overlaps, `${selector} over the header`).toBe(false);
}

test('on a phone a review is a short card that does not repeat every label', async ({ signedIn }) => {
  const page = await signedIn('owner');
  await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
  await page.goto('/reviews');
  const rows = page.getByTestId('review-row');
  await expect(rows.first()).toBeVisible();
  const heights = await rows.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
  expect(heights.length).toBeGreaterThan(10);
  expect(Math.max(...heights)).toBeLessThanOrEqual(130);
  const labels = await rows
    .first()
    .locator('td')
    .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
  expect(labels.every((content) => content === 'none' || content === 'normal')).toBe(true);
});

test('a toast leaves the header alone, at desk and phone widths', async ({ signedIn }) => {
  const page = await signedIn('owner');
  for (const width of WIDTHS) {
    await page.setViewportSize({ width: width.width, height: width.height });
    await page.goto('/notifications');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Notification settings saved.')).toBeVisible();
    await expectBelowHeader(page, '.mantine-Notification-root');
  }
});

test('Settings ask before unsaved edits are left behind, and keep them when you stay', async ({
  signedIn,
}) => {
  const page = await signedIn('owner');
  for (const width of WIDTHS) {
    await page.setViewportSize({ width: width.width, height: width.height });
    await page.goto('/settings');
    const subject = page.getByLabel('Email subject');
    const saved = await subject.inputValue();
    const edited = `${saved} (edited)`;
    await subject.fill(edited);
    const toReviews = async () => {
      if (width.name === 'phone') {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await page.getByRole('dialog').getByRole('link', { name: 'Reviews' }).click();
      } else {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reviews' }).click();
      }
    };
    await toReviews();
    const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Stay and save' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(subject).toHaveValue(edited);

    // A reload asks too (the browser's own question); dismissed, the edits stay.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    void page.reload().catch(() => {});
    expect(await asked).toBe('beforeunload');
    await expect(subject).toHaveValue(edited);

    await toReviews();
    await page
      .getByRole('dialog', { name: 'Leave without saving?' })
      .getByRole('button', { name: 'Leave without saving' })
      .click();
    await expect(page).toHaveURL(/\/reviews$/);
  }
});
