import { type ComponentProps, lazy, Suspense } from 'react';
import type { ErrorState } from './error-state.tsx';

// The error state for the pages every visit starts on (the shell, Reviews): its code (what each
// failure means, the Retry-After countdown) arrives with the first failure, not with every first
// load.

const Lazy = lazy(() => import('./error-state.tsx').then((module) => ({ default: module.ErrorState })));

export function LazyErrorState(props: ComponentProps<typeof ErrorState>) {
  return (
    <Suspense fallback={null}>
      <Lazy {...props} />
    </Suspense>
  );
}
