import { type MantineColorSchemeManager, MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { useToastHostWanted } from '../lib/toast.ts';
import { theme } from './theme.ts';

const ToastHost = lazy(() => import('./toast-host.tsx'));

function Toasts() {
  const wanted = useToastHostWanted();
  return wanted ? (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  ) : null;
}

/**
 * The colour scheme follows the system and the dashboard offers no switch, so there is nothing to
 * remember: Mantine's default manager reads (and writes) localStorage on start, and a fresh
 * profile's first storage access costs several milliseconds of the first row's time.
 */
const systemColorScheme: MantineColorSchemeManager = {
  get: (defaultValue) => defaultValue,
  set: () => {},
  subscribe: () => {},
  unsubscribe: () => {},
  clear: () => {},
};

/**
 * withCssVariables / withGlobalClasses off: both make Mantine inject inline <style> elements,
 * which a strict CSP (style-src 'self') refuses. Their content comes from static CSS instead.
 * defaultColorScheme "auto": light or dark follows the system, and changes with it.
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={systemColorScheme}
      withCssVariables={false}
      withGlobalClasses={false}
    >
      <Toasts />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
