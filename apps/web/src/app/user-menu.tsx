import '../components/overlays.css';
import { Menu } from '@mantine/core';
import { paths } from '../config/paths.ts';
import { useLogout } from '../features/auth/api/logout.ts';
import { useNavigate } from '../lib/router.tsx';
import { useSession } from '../lib/session.ts';
import { withMantine } from './mantine.tsx';
import { UserButton } from './user-button.tsx';

/** The account menu (loaded on first use: the header paints without the floating-menu code). */
function UserMenu({ initiallyOpened }: { initiallyOpened: boolean }) {
  const me = useSession();
  const logout = useLogout();
  const navigate = useNavigate();
  const signOut = () =>
    logout.mutate(undefined, { onSettled: () => navigate(paths.login, { replace: true }) });
  return (
    <Menu position="bottom-end" defaultOpened={initiallyOpened} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UserButton autoFocus />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          Signed in as {me.user.email} ({me.user.role})
        </Menu.Label>
        <Menu.Item onClick={signOut} disabled={logout.isPending}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export default withMantine(UserMenu);
