import { expect, type Page } from '@playwright/test';

// Small helpers in the user's terms: what a person reads and clicks.

/** Fills the send form for a phone channel with a US number typed the way people type it. */
export async function fillPhone(page: Page, typed: string): Promise<void> {
  await page.getByLabel('Country').selectOption('US');
  await page.getByRole('textbox', { name: 'Phone number' }).fill(typed);
}

/** The number on a KPI tile of the Analytics page. */
export async function kpiValue(page: Page, testId: string): Promise<number> {
  const tile = page.getByTestId(testId);
  await expect(tile).toBeVisible();
  const text = ((await tile.locator('.kpi__value').textContent()) ?? '').replace(/[^\d.]/g, '');
  return Number(text);
}

/** "21–40 of 57" → 57. */
export async function totalShown(page: Page): Promise<number> {
  const text = (await page.getByTestId('page-range').textContent()) ?? '';
  const match = /of (\d[\d,]*)/.exec(text);
  if (!match) throw new Error(`no total in “${text}”`);
  return Number(match[1]!.replace(/,/g, ''));
}
