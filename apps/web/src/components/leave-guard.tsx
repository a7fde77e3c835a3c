import { lazy, Suspense, useEffect, useState } from 'react';
import { ROUTER_BASENAME } from '../lib/location.ts';
import { useNavigate } from '../lib/router.tsx';

// The dialog's code (Mantine's overlays) comes when a link is clicked with changes unsaved.
const LeaveDialog = lazy(() => import('./leave-dialog.tsx'));

/**
 * Asks before unsaved changes are left behind (`when`): a link to another page of the dashboard
 * asks in a dialog, a reload or a closed tab gets the browser's own question. The router here is
 * not a data router (no useBlocker), so links are caught as they are clicked, before the router's
 * Link sees them; Back is not asked about.
 */
export function LeaveGuard({ when, what }: { when: boolean; what: string }) {
  const navigate = useNavigate();
  const [leavingTo, setLeavingTo] = useState<string | null>(null);

  useEffect(() => {
    if (!when) return;
    // Changes made: the dialog's code is fetched now, so it opens at once when asked for.
    void import('./leave-dialog.tsx');
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank' || link.hasAttribute('download'))
        return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      const base = ROUTER_BASENAME ?? '';
      if (!url.pathname.startsWith(base) || url.pathname === window.location.pathname) return;
      // Prevented, not stopped: the link's own handlers still run (a drawer or menu closes), and
      // the router's Link does not navigate a click whose default was prevented.
      event.preventDefault();
      setLeavingTo(`${url.pathname.slice(base.length) || '/'}${url.search}`);
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [when]);

  if (leavingTo === null) return null;
  return (
    <Suspense fallback={null}>
      <LeaveDialog
        what={what}
        onStay={() => setLeavingTo(null)}
        onLeave={() => {
          const to = leavingTo;
          setLeavingTo(null);
          navigate(to);
        }}
      />
    </Suspense>
  );
}
