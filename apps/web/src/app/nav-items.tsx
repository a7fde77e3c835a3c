import { useLocations } from '../lib/location-list.ts';
import { NavLink } from '../lib/router.tsx';
import { useSession } from '../lib/session.ts';
import { pages } from './pages.ts';

/** The pages this role may open, from the table of pages: the UI mirrors the BFF's rules (which enforce them). */
export function NavItems({ onNavigate }: { onNavigate?: () => void }) {
  const me = useSession();
  const several = (useLocations().data?.locations.length ?? 0) > 1;
  return pages.map((page) => {
    if (!page.nav || page.access === 'public' || !me.permissions.includes(page.access)) return null;
    if (page.multiLocation && !several) return null;
    const Icon = page.nav.icon;
    return (
      <NavLink
        key={page.name}
        to={page.path}
        className="nav-link"
        onClick={onNavigate}
        // Start fetching the page's chunk when the user shows intent.
        onMouseEnter={() => void page.Component.preload()}
        onFocus={() => void page.Component.preload()}
      >
        {Icon && <Icon aria-hidden="true" className="nav-link__icon" />}
        {page.nav.label}
      </NavLink>
    );
  });
}
