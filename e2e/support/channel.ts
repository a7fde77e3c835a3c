import type { Page } from '@playwright/test';

/** Picks a channel on the send form's segmented control, as a user clicks it. */
export async function chooseChannel(page: Page, label: 'SMS' | 'Email' | 'Both' | 'Link'): Promise<void> {
  const group = page.getByRole('radiogroup', { name: 'Channel' });
  await group
    .locator('label')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .click();
  await page.getByRole('radio', { name: label }).isChecked();
}
