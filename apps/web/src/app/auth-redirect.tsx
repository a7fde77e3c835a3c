import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { loginHref, paths } from '../config/paths.ts';
import { onAuthRequired } from '../lib/auth-events.ts';
import { useLocation, useNavigate } from '../lib/router.tsx';

/**
 * A 401 from the BFF carrying "session required", on any call, ends here: the cached data of
 * the old session is dropped and the user goes to sign in, then comes back to this very URL.
 */
export function AuthRedirect() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const here = useRef('');
  here.current = `${location.pathname}${location.search}${location.hash}`;

  useEffect(
    () =>
      onAuthRequired(() => {
        if (here.current === paths.login || here.current.startsWith(`${paths.login}?`)) return;
        navigate(loginHref(here.current), { replace: true });
        // After navigating, so the page being left does not refetch what it just lost.
        queueMicrotask(() => queryClient.clear());
      }),
    [navigate, queryClient],
  );
  return null;
}
