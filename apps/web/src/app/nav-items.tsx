import type { Permission } from '@review-desk/shared/bff';
import { NavLink } from 'react-router';
import { paths } from '../config/paths.ts';
import { useSession } from '../lib/session.ts';
import { PAGE_PERMISSIONS, routePages } from './route-modules.ts';

const NAV: { to: string; label: string; permission: Permission; module: () => Promise<unknown> }[] = [
  {
    to: paths.reviews,
    label: 'Reviews',
    permission: PAGE_PERMISSIONS.reviews,
    module: routePages.reviews.preload,
  },
  {
    to: paths.send,
    label: 'Send request',
    permission: PAGE_PERMISSIONS.send,
    module: routePages.send.preload,
  },
  {
    to: paths.requests,
    label: 'Recent requests',
    permission: PAGE_PERMISSIONS.requests,
    module: routePages.requests.preload,
  },
  {
    to: paths.analytics,
    label: 'Analytics',
    permission: PAGE_PERMISSIONS.analytics,
    module: routePages.analytics.preload,
  },
  { to: paths.users, label: 'Users', permission: PAGE_PERMISSIONS.users, module: routePages.users.preload },
];

/** The pages this role may open: the UI mirrors the BFF's rules (which enforce them). */
export function NavItems({ onNavigate }: { onNavigate?: () => void }) {
  const me = useSession();
  return NAV.filter((item) => me.permissions.includes(item.permission)).map((item) => (
    <NavLink
      key={item.to}
      to={item.to}
      className="nav-link"
      onClick={onNavigate}
      // Start fetching the page's chunk when the user shows intent.
      onMouseEnter={() => void item.module()}
      onFocus={() => void item.module()}
    >
      {item.label}
    </NavLink>
  ));
}
