import { AUTH_REQUIRED_HEADER, ROLE_PERMISSIONS, type Role } from '@review-desk/shared/bff';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client.ts';
import { fail, ok, stubFetch } from '../test/fetch-stub.ts';
import { AppProviders } from './providers.tsx';
import { AppRouter } from './router.tsx';

afterEach(() => vi.unstubAllGlobals());

function me(role: Role) {
  return {
    user: { id: `u-${role}`, email: `${role}@example.com`, role },
    permissions: [...ROLE_PERMISSIONS[role]],
    business: { name: 'Harbour Street Coffee' },
    settings: { frequencyCapDays: 30 },
  };
}

/** A fresh answer per call: a Response's body can be read once. */
const emptyReviews = () => ok({ page: 1, limit: 20, total: 0, reviews: [] });

function startAt(url: string) {
  window.history.replaceState(null, '', url);
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <AppRouter />
    </AppProviders>,
  );
}

const here = () => `${window.location.pathname}${window.location.search}`;

describe('the shell', () => {
  it('sends a signed-out user to sign in, then back to where they were', async () => {
    let signedIn = false;
    const { calls } = stubFetch(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/auth/login') {
        const body = (await request.json()) as { password: string };
        if (body.password !== 'correct horse battery') return fail('login_failed');
        signedIn = true;
        return ok(me('owner'));
      }
      if (!signedIn) return fail('session_missing', undefined, {}, { [AUTH_REQUIRED_HEADER]: 'session' });
      if (path === '/auth/me') return ok(me('owner'));
      return emptyReviews();
    });
    startAt('/reviews?status=pending');
    await waitFor(() => expect(here()).toBe('/login?next=%2Freviews%3Fstatus%3Dpending'));

    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/Email/), 'owner@example.com');
    await u.type(screen.getByLabelText(/Password/), 'wrong password!');
    await u.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email or password is incorrect.')).toBeInTheDocument();
    expect(here()).toMatch(/^\/login/);

    await u.clear(screen.getByLabelText(/Password/));
    await u.type(screen.getByLabelText(/Password/), 'correct horse battery');
    await u.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(here()).toBe('/reviews?status=pending'));
    expect(await screen.findByTestId('business-name')).toHaveTextContent('Harbour Street Coffee');
    expect(calls.every((c) => c.headers.get('x-csrf') === '1')).toBe(true);
  });

  it('goes to sign in when the session ends in the middle of the work', async () => {
    let expired = false;
    stubFetch((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/auth/me') return ok(me('manager'));
      if (expired) return fail('session_expired', undefined, {}, { [AUTH_REQUIRED_HEADER]: 'session' });
      return emptyReviews();
    });
    startAt('/reviews');
    await screen.findByTestId('reviews-empty');
    expired = true;
    await userEvent.setup().selectOptions(screen.getByLabelText('Status'), 'ignored');
    await waitFor(() => expect(here()).toBe('/login?next=%2Freviews%3Fstatus%3Dignored'));
  });

  it('shows an upstream key failure as an error, not a sign-out', async () => {
    stubFetch((request) => {
      if (new URL(request.url).pathname === '/auth/me') return ok(me('owner'));
      return fail('upstream_key_refused');
    });
    startAt('/reviews');
    const state = await screen.findByTestId('error-state');
    expect(state).toHaveTextContent('The server’s API key was refused');
    expect(state).toHaveTextContent('Ask an owner to check the API key');
    expect(here()).toBe('/reviews');
  });

  it('mirrors roles: staff see no Analytics or Users, and a direct URL says not allowed', async () => {
    stubFetch((request) => (new URL(request.url).pathname === '/auth/me' ? ok(me('staff')) : emptyReviews()));
    startAt('/analytics');
    expect(await screen.findByTestId('not-allowed')).toHaveTextContent(
      'Your role (staff) does not give access to Analytics',
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Reviews' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Send request' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Analytics' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
  });

  it('shows owners every page', async () => {
    stubFetch((request) => (new URL(request.url).pathname === '/auth/me' ? ok(me('owner')) : emptyReviews()));
    startAt('/reviews');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Reviews', 'Inbox', 'Send request', 'Recent requests', 'Analytics', 'Users', 'Settings']);
  });
});
