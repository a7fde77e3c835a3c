import './shell.css';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocations } from '../lib/location-list.ts';
import { Outlet, useLocation } from '../lib/router.tsx';
import { useSession } from '../lib/session.ts';
import { NavBar } from './nav-bar.tsx';
import { PageSkeleton } from './page-skeleton.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { UserButton } from './user-button.tsx';

const loadUserMenu = () => import('./user-menu.tsx');
const UserMenu = lazy(loadUserMenu);
const loadMobileNav = () => import('./mobile-nav.tsx');
// Only users with several locations see it: its code is not part of everyone's first load.
const LocationSwitcher = lazy(() => import('../features/locations/components/location-switcher.tsx'));

function Switcher() {
  const several = (useLocations().data?.locations.length ?? 0) > 1;
  if (!several) return null;
  return (
    <Suspense fallback={null}>
      <LocationSwitcher />
    </Suspense>
  );
}
const MobileNav = lazy(loadMobileNav);
// The bell's code and its first read arrive after the first paint.
const Bell = lazy(() => import('../features/notifications/components/bell.tsx'));

/** The account button; the menu's code arrives on first hover, focus or click. */
function AccountMenu() {
  const [wanted, setWanted] = useState(false);
  const trigger = (
    <UserButton
      onMouseEnter={() => void loadUserMenu()}
      onFocus={() => void loadUserMenu()}
      onClick={() => setWanted(true)}
    />
  );
  if (!wanted) return trigger;
  return (
    <Suspense fallback={trigger}>
      <UserMenu initiallyOpened />
    </Suspense>
  );
}

/** After a client-side navigation, move focus to the new page's heading, as a page load would. */
function useFocusHeadingOnNavigate() {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const timer = setTimeout(() => document.getElementById('page-title')?.focus(), 50);
    return () => clearTimeout(timer);
  }, [pathname]);
}

export function Shell() {
  const me = useSession();
  const [navOpen, setNavOpen] = useState(false);
  const [navLoaded, setNavLoaded] = useState(false);
  const location = useLocation();
  // With several locations the switcher names the one shown; the business name would contradict it.
  const several = (useLocations().data?.locations.length ?? 0) > 1;
  useFocusHeadingOnNavigate();

  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <header className="shell-header">
        <div className="shell-header__inner">
          <button
            type="button"
            onClick={() => {
              setNavLoaded(true);
              setNavOpen((open) => !open);
            }}
            onMouseEnter={() => void loadMobileNav()}
            className="shell-burger"
            aria-label={navOpen ? 'Close navigation' : 'Open navigation'}
          >
            <span className="shell-burger__lines" data-opened={navOpen || undefined} />
          </button>
          <div className="brand">
            <span className="brand-name">Review Desk</span>
            {me.business && !several && (
              <span className="brand-business" data-testid="business-name">
                {me.business.name}
              </span>
            )}
          </div>
          <Switcher />
          <NavBar />
          {me.permissions.includes('reviews:read') && (
            <Suspense fallback={null}>
              <Bell />
            </Suspense>
          )}
          <AccountMenu />
        </div>
      </header>
      {navLoaded && (
        <Suspense fallback={null}>
          <MobileNav opened={navOpen} onClose={() => setNavOpen(false)} />
        </Suspense>
      )}
      <main id="main" className="shell-main" tabIndex={-1}>
        <RouteErrorBoundary key={location.pathname}>
          <Suspense fallback={<PageSkeleton />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
    </div>
  );
}
