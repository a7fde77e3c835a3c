import { LazyErrorState as ErrorState } from '../components/error-state-lazy.tsx';
import { Loader } from '../components/loader.tsx';
import { loginHref } from '../config/paths.ts';
import { useMe } from '../features/auth/api/get-me.ts';
import { isAuthRequired } from '../lib/api-error.ts';
import { Navigate, useLocation } from '../lib/router.tsx';
import { SessionContext } from '../lib/session.ts';
import { Shell } from './shell.tsx';
import { useStartPageCode } from './start-page.ts';

/**
 * Pages behind sign-in: waits for /auth/me (and, on the first page of a visit, for that page's
 * code, fetched alongside), then renders the shell with the session.
 */
export function RequireSession() {
  const me = useMe();
  const pageCode = useStartPageCode();
  const location = useLocation();

  if (me.data && pageCode) {
    return (
      <SessionContext value={me.data}>
        <Shell />
      </SessionContext>
    );
  }
  if (me.error && isAuthRequired(me.error)) {
    return <Navigate to={loginHref(`${location.pathname}${location.search}`)} replace />;
  }
  if (me.error) {
    return (
      <main className="center-page">
        <ErrorState error={me.error} onRetry={() => me.refetch()} />
      </main>
    );
  }
  return (
    <div className="center-page" aria-busy="true">
      <Loader aria-label="Loading Review Desk" />
    </div>
  );
}
