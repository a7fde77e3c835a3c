import { ROLE_PERMISSIONS, ROLES, type Role } from '@review-desk/shared/bff';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client.ts';
import { ok, stubFetch } from '../test/fetch-stub.ts';
import { PAGES, pages } from './pages.ts';
import { AppProviders } from './providers.tsx';
import { AppRouter } from './router.tsx';

// The table of pages drives the routes, the guard, the navigation and the lazy chunks: for every
// row and every role, the address shows the page (named from the table) or "Not allowed", and the
// navigation offers exactly the rows the role may open.

// Every page's module fetched first (the test's first import of a page is transformed on the
// spot, seconds on a busy machine): what is checked here is what the table derives, not timing.
beforeAll(async () => {
  await Promise.all(pages.map((page) => page.Component.preload()));
}, 60_000);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function me(role: Role) {
  return {
    user: { id: `u-${role}`, email: `${role}@example.com`, role },
    permissions: [...ROLE_PERMISSIONS[role]],
    business: null,
    settings: { frequencyCapDays: 30 },
  };
}

function startAt(url: string, role: Role) {
  // Pages read what they read; an empty list answers most, the rest show their error state.
  stubFetch((request) =>
    new URL(request.url).pathname === '/auth/me'
      ? ok(me(role))
      : ok({
          page: 1,
          limit: 20,
          total: 0,
          reviews: [],
          users: [],
          sends: [],
          // Two locations: the pages that compare or merge locations are in the navigation.
          locations: [
            { slug: 'downtown', name: 'Downtown' },
            { slug: 'airport', name: 'Airport' },
          ],
        }),
  );
  window.history.replaceState(null, '', url);
  render(
    <AppProviders queryClient={createQueryClient()}>
      <AppRouter />
    </AppProviders>,
  );
}

const signedIn = pages.filter((page) => page.access !== 'public');
const cases = ROLES.flatMap((role) => signedIn.map((page) => [role, page.name, page] as const));

describe('the table of pages', () => {
  it.each(cases)(
    '%s at the %s page: the page or “Not allowed”, named from the table',
    async (role, _, page) => {
      startAt(page.path, role);
      const allowed = page.access !== 'public' && me(role).permissions.includes(page.access);
      if (allowed) {
        expect(await screen.findByRole('heading', { level: 1, name: page.title })).toBeInTheDocument();
        await waitFor(() => expect(document.title).toBe(`${page.title} · Review Desk`));
      } else {
        expect(await screen.findByTestId('not-allowed')).toHaveTextContent(
          `Your role (${role}) does not give access to ${page.title}`,
        );
      }
    },
  );

  it.each(ROLES)(
    '%s: the navigation offers, in table order, exactly the pages the role may open',
    async (role) => {
      startAt(PAGES.reviews.path, role);
      const nav = await screen.findByRole('navigation', { name: 'Main' });
      const expected = pages.filter(
        (page) => page.nav && page.access !== 'public' && me(role).permissions.includes(page.access),
      );
      expect(expected.length).toBeGreaterThan(1);
      // The pages that compare locations join once the user's locations have answered.
      await waitFor(() =>
        expect(
          within(nav)
            .getAllByRole('link')
            .map((a) => a.textContent),
        ).toEqual(expected.map((page) => page.nav!.label)),
      );
      const links = within(nav).getAllByRole('link');
      expect(links.map((a) => a.getAttribute('href'))).toEqual(expected.map((page) => page.path));
    },
  );

  it('the sign-in page is open to anyone and named from the table', async () => {
    stubFetch(() => ok({}));
    window.history.replaceState(null, '', PAGES.login.path);
    render(
      <AppProviders queryClient={createQueryClient()}>
        <AppRouter />
      </AppProviders>,
    );
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${PAGES.login.title} · Review Desk`));
  });
});
