import { AxeBuilder } from '@axe-core/playwright';
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

/** The serious and critical accessibility violations (axe: WCAG 2.1 A/AA and best practice) on the page. */
export async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }));
}
