import { useLocations } from '../lib/location-list.ts';
import { NavLink } from '../lib/router.tsx';
import { useSession } from '../lib/session.ts';
import { type Page, pages } from './pages.ts';

/** The pages this role may open, from the table of pages: the UI mirrors the BFF's rules (which enforce them). */
export function useNavPages(): (Page & { nav: NonNullable<Page['nav']> })[] {
  const me = useSession();
  const several = (useLocations().data?.locations.length ?? 0) > 1;
  return pages.filter(
    (page): page is Page & { nav: NonNullable<Page['nav']> } =>
      !!page.nav &&
      page.access !== 'public' &&
      me.permissions.includes(page.access) &&
      (!page.multiLocation || several),
  );
}

/** One page's link in a navigation. */
export function NavItem({ page, onNavigate }: { page: Page; onNavigate?: () => void }) {
  const Icon = page.nav?.icon;
  return (
    <NavLink
      to={page.path}
      className="nav-link"
      onClick={onNavigate}
      // Start fetching the page's chunk when the user shows intent.
      onMouseEnter={() => void page.Component.preload()}
      onFocus={() => void page.Component.preload()}
    >
      {Icon && <Icon aria-hidden="true" className="nav-link__icon" />}
      {page.nav?.label}
    </NavLink>
  );
}

/** Every page this role may open, one link each (the navigation drawer on a phone). */
export function NavItems({ onNavigate }: { onNavigate?: () => void }) {
  return useNavPages().map((page) => <NavItem key={page.name} page={page} onNavigate={onNavigate} />);
}
