import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage, session } from '../../../test/render.tsx';
import UsersPage from './users-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const user = (id: string, email: string, role: string) => ({
  id,
  email,
  role,
  createdAt: '2025-06-01T10:00:00.000Z',
  lastLoginAt: null,
});

function bff() {
  const users = [user('u-owner', 'owner@example.com', 'owner'), user('u2', 'staff@example.com', 'staff')];
  const writes: { method: string; path: string; body: unknown }[] = [];
  stubFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'GET') return ok({ users });
    const body = request.method === 'DELETE' ? null : await request.json();
    writes.push({ method: request.method, path, body });
    if (request.method === 'POST') {
      const created = user('u3', (body as { email: string }).email, (body as { role: string }).role);
      users.push(created);
      return ok({ user: created });
    }
    if (request.method === 'PATCH') return ok({ user: { ...users[1]!, ...(body as object) } });
    if (request.method === 'DELETE') return ok({ user: users[1] });
    return fail('method_not_allowed');
  });
  return { writes };
}

describe('Users page (owners)', () => {
  it('lists users and keeps an owner from changing or removing themself', async () => {
    bff();
    renderPage(<UsersPage title="Users" />, { url: '/users', me: session('owner') });
    const rows = await screen.findAllByTestId('user-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('you')).toBeInTheDocument();
    expect(within(rows[0]!).getByLabelText('Role of owner@example.com')).toBeDisabled();
    expect(within(rows[0]!).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(within(rows[1]!).getByLabelText('Role of staff@example.com')).toBeEnabled();
  });

  it('offers no location limit for owners, who have every location', async () => {
    bff();
    renderPage(<UsersPage title="Users" />, { url: '/users', me: session('owner') });
    const rows = await screen.findAllByTestId('user-row');
    expect(within(rows[0]!).queryByRole('button', { name: /^Locations of/ })).not.toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Locations of staff@example.com' })).toBeEnabled();
  });

  it('adds a user, checking the password rule before sending', async () => {
    const u = userEvent.setup();
    const { writes } = bff();
    renderPage(<UsersPage title="Users" />, { url: '/users', me: session('owner') });
    await screen.findAllByTestId('user-row');
    await u.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a user' });
    await u.type(within(dialog).getByLabelText(/Email/), 'new@example.com');
    await u.selectOptions(within(dialog).getByLabelText('Role'), 'manager');
    await u.type(within(dialog).getByLabelText(/^Password/), 'short');
    await u.click(within(dialog).getByRole('button', { name: 'Add user' }));
    expect(await within(dialog).findByText('Password must be at least 12 characters')).toBeInTheDocument();
    expect(writes).toHaveLength(0);

    await u.clear(within(dialog).getByLabelText(/^Password/));
    await u.type(within(dialog).getByLabelText(/^Password/), 'a-long-enough-password');
    await u.click(within(dialog).getByRole('button', { name: 'Add user' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toEqual({
      method: 'POST',
      path: '/bff/users',
      body: { email: 'new@example.com', role: 'manager', password: 'a-long-enough-password' },
    });
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(3));
  });

  it('changes a role that grants more only once confirmed, and removes a user after confirmation', async () => {
    const u = userEvent.setup();
    const { writes } = bff();
    renderPage(<UsersPage title="Users" />, { url: '/users', me: session('owner') });
    const rows = await screen.findAllByTestId('user-row');
    const role = within(rows[1]!).getByLabelText('Role of staff@example.com');
    await u.selectOptions(role, 'owner');
    const ask = await screen.findByRole('dialog', { name: 'Make staff@example.com owner?' });
    expect(ask).toHaveTextContent('including managing users');
    expect(writes).toHaveLength(0);
    await u.click(within(ask).getByRole('button', { name: 'Keep staff' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(writes).toHaveLength(0);
    expect(role).toHaveValue('staff');

    await u.selectOptions(role, 'manager');
    const confirm = await screen.findByRole('dialog', { name: 'Make staff@example.com manager?' });
    await u.click(within(confirm).getByRole('button', { name: 'Make manager' }));
    await waitFor(() =>
      expect(writes[0]).toEqual({ method: 'PATCH', path: '/bff/users/u2', body: { role: 'manager' } }),
    );

    await u.click(within(rows[1]!).getByRole('button', { name: 'Remove staff@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this user?' });
    await u.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(writes[1]).toEqual({ method: 'DELETE', path: '/bff/users/u2', body: null }));
  });

  it('sets a new password for a user, checking the password rule before sending', async () => {
    const u = userEvent.setup();
    const { writes } = bff();
    renderPage(<UsersPage title="Users" />, { url: '/users', me: session('owner') });
    const rows = await screen.findAllByTestId('user-row');
    await u.click(within(rows[1]!).getByRole('button', { name: 'Reset password of staff@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'New password for staff@example.com' });
    await u.type(within(dialog).getByLabelText(/^New password/), 'short');
    await u.click(within(dialog).getByRole('button', { name: 'Set password' }));
    expect(await within(dialog).findByText(/at least 12 characters/)).toBeInTheDocument();
    expect(writes).toHaveLength(0);

    await u.click(within(dialog).getByRole('button', { name: 'Generate a password' }));
    const generated = (within(dialog).getByLabelText(/^New password/) as HTMLInputElement).value;
    expect(generated).toMatch(/^[A-Za-z2-9]{20}$/);
    await u.click(within(dialog).getByRole('button', { name: 'Set password' }));
    await waitFor(() =>
      expect(writes[0]).toEqual({ method: 'PATCH', path: '/bff/users/u2', body: { password: generated } }),
    );
    // The generated password was shown in the field, and is shown once more to copy.
    const once = await within(dialog).findByTestId('password-once');
    expect(within(once).getByLabelText('Password')).toHaveValue(generated);
    expect(within(once).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    await u.click(within(once).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows a generated password in the field, not hidden behind dots', async () => {
    const u = userEvent.setup();
    bff();
    renderPage(<UsersPage title="Users" />, { url: '/users', me: session('owner') });
    await screen.findAllByTestId('user-row');
    await u.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a user' });
    const field = within(dialog).getByLabelText(/^Password/) as HTMLInputElement;
    expect(field.type).toBe('password');
    await u.click(within(dialog).getByRole('button', { name: 'Generate a password' }));
    expect(field.type).toBe('text');
    expect(field.value).toMatch(/^[A-Za-z2-9]{20}$/);
  });
});
