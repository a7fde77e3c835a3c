import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';
import { drawingProblems } from './drawn.ts';

// The widths people use the dashboard at, and a screenshot of what they see at each, written
// where a person can look at them after any run of the browser suite (docs/web.md, "Tests").

export const WIDTHS = [
  { name: 'desk', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export type Width = (typeof WIDTHS)[number];

/** test-results/screens/, next to Playwright's own results (emptied at the start of each run). */
export const SCREENS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test-results/screens',
);

/** A screenshot (of the whole page unless `fullPage` is false) into SCREENS_DIR, named `<what>-<width>.png`. */
export async function screenshot(page: Page, what: string, width: Width, fullPage = true): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(
      SCREENS_DIR,
      `${what.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}-${width.name}.png`,
    ),
    fullPage,
    animations: 'disabled',
  });
}

/** Fails (softly, so every state is checked) when anything is drawn oversized or unstyled. */
export async function expectDrawnRight(page: Page, label: string): Promise<void> {
  const problems = await drawingProblems(page);
  expect.soft(problems.oversized, `${label}: controls or icons drawn oversized`).toEqual([]);
  expect.soft(problems.unstyled, `${label}: components drawn without their styles`).toEqual([]);
}

/** A client-side navigation, as a link inside the dashboard makes it (no new page load). */
export async function navigateInApp(page: Page, to: string, ready: (page: Page) => Locator): Promise<void> {
  await page.evaluate((address) => {
    window.history.pushState(null, '', address);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await expect(ready(page)).toBeVisible({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
}
