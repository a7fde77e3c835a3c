import type { Browser, Page } from '@playwright/test';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@review-desk/shared/bff';
import { expect, test } from './fixtures.ts';
import { BASE_URL } from './support/stack.ts';

// Users: a role change that grants more is confirmed first; a generated password is shown, and
// shown once more to copy when it is set; every user changes their own password with the current
// one, and their other sessions end.

const HEADERS = { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: BASE_URL };

/** A page signed in as this user, in a browser context of its own. */
async function signedInAs(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const reply = await page.request.post(`${BASE_URL}/auth/login`, {
    data: { email, password },
    headers: HEADERS,
  });
  expect(reply.status(), `sign-in of ${email}`).toBe(200);
  return page;
}

test('an owner confirms a role that grants more; a generated password is shown and shown once more to copy', async ({
  signedIn,
  browser,
}) => {
  const owner = await signedIn('owner');
  const email = `roles-${Date.now()}@example.com`;
  const added = await owner.request.post(`${BASE_URL}/bff/users`, {
    data: { email, role: 'staff', password: 'first-password-123' },
    headers: HEADERS,
  });
  expect(added.status()).toBe(201);
  await owner.goto('/users');
  const role = owner.getByLabel(`Role of ${email}`);
  await role.selectOption('owner');
  const ask = owner.getByRole('dialog', { name: `Make ${email} owner?` });
  await expect(ask).toContainText('including managing users');
  await ask.getByRole('button', { name: 'Keep staff' }).click();
  await expect(role).toHaveValue('staff');
  await owner.reload();
  await expect(owner.getByLabel(`Role of ${email}`)).toHaveValue('staff');

  await owner.getByRole('button', { name: `Reset password of ${email}` }).click();
  const dialog = owner.getByRole('dialog', { name: `New password for ${email}` });
  await dialog.getByRole('button', { name: 'Generate a password' }).click();
  const field = dialog.getByLabel(/^New password/);
  await expect(field).toHaveAttribute('type', 'text');
  const generated = await field.inputValue();
  expect(generated).toMatch(/^[A-Za-z2-9]{20}$/);
  await dialog.getByRole('button', { name: 'Set password' }).click();
  const once = dialog.getByTestId('password-once');
  await expect(once.getByLabel('Password')).toHaveValue(generated);
  await expect(once.getByRole('button', { name: 'Copy' })).toBeVisible();
  await once.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  // The password shown is the one that works.
  await signedInAs(browser, email, generated);
});

test('every user changes their own password: the current one first; their other sessions end', async ({
  signedIn,
  browser,
}) => {
  const owner = await signedIn('owner');
  const email = `self-${Date.now()}@example.com`;
  const first = 'first-password-123';
  expect(
    (
      await owner.request.post(`${BASE_URL}/bff/users`, {
        data: { email, role: 'staff', password: first },
        headers: HEADERS,
      })
    ).status(),
  ).toBe(201);
  const here = await signedInAs(browser, email, first);
  const elsewhere = await signedInAs(browser, email, first);

  await here.goto('/reviews');
  await here.getByRole('button', { name: /^Account:/ }).click();
  await here.getByRole('menuitem', { name: 'Change password' }).click();
  const dialog = here.getByRole('dialog', { name: 'Change your password' });
  await dialog.getByLabel('Current password').fill('not-my-password');
  await dialog.getByLabel('New password').fill('second-password-456');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog.getByLabel('Current password')).toHaveAccessibleDescription(
    'The current password is not right.',
  );
  await dialog.getByLabel('Current password').fill(first);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(here.getByText('Password changed')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Still signed in here; signed out elsewhere.
  await here.goto('/requests');
  await expect(here.locator('#page-title')).toHaveText('Recent requests');
  await elsewhere.goto('/requests');
  await expect(elsewhere).toHaveURL(/\/login/);
  await signedInAs(browser, email, 'second-password-456');
});
