import { ROLE_PERMISSIONS, type Role } from '@review-desk/shared/bff';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client.ts';
import { ok, stubFetch } from '../test/fetch-stub.ts';
import { AppProviders } from './providers.tsx';
import { AppRouter } from './router.tsx';

// Adding a page is adding one row: with a Settings row added to the table and nothing else, the
// route, the guard, the navigation item with its icon and the lazy chunk all follow.

vi.mock('./pages.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./pages.ts')>();
  const table = {
    ...actual.PAGES,
    settings: {
      path: '/settings',
      title: 'Settings',
      access: 'users:manage',
      load: async () => ({ default: ({ title }: { title: string }) => <h1>{title}</h1> }),
      nav: { label: 'Settings', icon: () => <svg data-testid="settings-icon" /> },
    },
  } satisfies Record<string, import('./pages.ts').PageRow>;
  const pages = actual.toPages(table);
  return { ...actual, PAGES: table, pages, pageAt: (pathname: string) => actual.pageAt(pathname, pages) };
});

afterEach(() => vi.unstubAllGlobals());

function startAt(url: string, role: Role) {
  stubFetch((request) =>
    new URL(request.url).pathname === '/auth/me'
      ? ok({
          user: { id: `u-${role}`, email: `${role}@example.com`, role },
          permissions: [...ROLE_PERMISSIONS[role]],
          business: null,
          settings: { frequencyCapDays: 30 },
        })
      : ok({ page: 1, limit: 20, total: 0, reviews: [] }),
  );
  window.history.replaceState(null, '', url);
  render(
    <AppProviders queryClient={createQueryClient()}>
      <AppRouter />
    </AppProviders>,
  );
}

describe('a new row in the table of pages', () => {
  it('is a route, a nav item with its icon, and a lazily loaded page for the roles it allows', async () => {
    startAt('/settings', 'owner');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const link = within(nav).getByRole('link', { name: 'Settings' });
    expect(link).toHaveAttribute('href', '/settings');
    expect(within(link).getByTestId('settings-icon')).toBeInTheDocument();
  });

  it('is guarded: a role without its permission is told so and not offered it', async () => {
    startAt('/settings', 'staff');
    expect(await screen.findByTestId('not-allowed')).toHaveTextContent(
      'Your role (staff) does not give access to Settings',
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
  });
});
