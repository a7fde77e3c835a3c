import { MantineProvider } from '@mantine/core';
import type { Me, Role } from '@review-desk/shared/bff';
import { ROLE_PERMISSIONS } from '@review-desk/shared/bff';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createQueryClient } from '../lib/query-client.ts';
import { MemoryRouter, Route, Routes, useLocation } from '../lib/router.tsx';
import { SessionContext } from '../lib/session.ts';

export function session(role: Role = 'owner', frequencyCapDays = 30): Me {
  return {
    user: { id: `u-${role}`, email: `${role}@example.com`, role },
    permissions: [...ROLE_PERMISSIONS[role]],
    business: { name: 'Harbour Street Coffee' },
    settings: { frequencyCapDays },
  };
}

/** Shows the router's current location, so tests can read the URL state. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function renderPage(
  ui: ReactNode,
  {
    url = '/',
    path = '*',
    me = session(),
    retryDelay,
  }: { url?: string; path?: string; me?: Me; retryDelay?: number } = {},
) {
  const queryClient = createQueryClient();
  if (retryDelay !== undefined) {
    queryClient.setDefaultOptions({
      ...queryClient.getDefaultOptions(),
      queries: { ...queryClient.getDefaultOptions().queries, retryDelay },
    });
  }
  const result = render(
    <MantineProvider withCssVariables={false} withGlobalClasses={false}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[url]}>
          <SessionContext value={me}>
            <Routes>
              <Route path={path} element={ui} />
            </Routes>
            <LocationProbe />
          </SessionContext>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, queryClient };
}

export function currentUrl(container: { getByTestId: (id: string) => HTMLElement }): string {
  return container.getByTestId('location').textContent ?? '';
}
