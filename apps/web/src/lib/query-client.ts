import { QueryClient } from '@tanstack/react-query';
import { retryDelayMs, shouldRetryRead } from './retry-policy.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetryRead,
        retryDelay: retryDelayMs,
        staleTime: 30_000,
      },
      // Never retried automatically (see retry-policy.ts).
      mutations: { retry: false },
    },
  });
}
