import { MantineProvider } from '@mantine/core';
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
 * withCssVariables / withGlobalClasses off: both make Mantine inject inline <style> elements,
 * which a strict CSP (style-src 'self') refuses. Their content comes from static CSS instead.
 * defaultColorScheme "auto": light or dark follows the system, and changes with it.
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      withCssVariables={false}
      withGlobalClasses={false}
    >
      <Toasts />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
