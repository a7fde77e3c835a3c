import type { Permission } from '@review-desk/shared/bff';
import { NavLink } from 'react-router';
import { paths } from '../config/paths.ts';
import { useSession } from '../lib/session.ts';
import { routeModules } from './route-modules.ts';

const NAV: { to: string; label: string; permission: Permission; module: () => Promise<unknown> }[] = [
  { to: paths.reviews, label: 'Reviews', permission: 'reviews:read', module: routeModules.reviews },
  { to: paths.send, label: 'Send request', permission: 'requests:send', module: routeModules.send },
  { to: paths.requests, label: 'Recent requests', permission: 'sends:read', module: routeModules.requests },
  { to: paths.analytics, label: 'Analytics', permission: 'analytics:read', module: routeModules.analytics },
  { to: paths.users, label: 'Users', permission: 'users:manage', module: routeModules.users },
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
