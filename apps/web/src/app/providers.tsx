import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { useToastHostWanted } from '../lib/toast.ts';

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
 * The query client for everything below. Mantine has no provider here: the parts that use its
 * components bring their own (app/mantine.tsx), and the colour scheme is set at start
 * (app/color-scheme.ts).
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Toasts />
      {children}
    </QueryClientProvider>
  );
}
