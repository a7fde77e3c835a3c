import '../components/overlays.css';
import { Menu } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { paths } from '../config/paths.ts';
import { useLogout } from '../features/auth/api/logout.ts';
import { useNavigate } from '../lib/router.tsx';
import { useSession } from '../lib/session.ts';
import { withMantine } from './mantine.tsx';
import { UserButton } from './user-button.tsx';

const ChangePasswordDialog = lazy(() => import('../features/auth/components/change-password-dialog.tsx'));

/** The account menu (loaded on first use: the header paints without the floating-menu code). */
function UserMenu({ initiallyOpened }: { initiallyOpened: boolean }) {
  const me = useSession();
  const [changing, setChanging] = useState(false);
  const logout = useLogout();
  const navigate = useNavigate();
  const signOut = () =>
    logout.mutate(undefined, { onSettled: () => navigate(paths.login, { replace: true }) });
  return (
    <>
      <Menu position="bottom-end" defaultOpened={initiallyOpened} withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <UserButton autoFocus />
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            Signed in as {me.user.email} ({me.user.role})
          </Menu.Label>
          <Menu.Item onClick={() => setChanging(true)}>Change password</Menu.Item>
          <Menu.Item onClick={signOut} disabled={logout.isPending}>
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {changing && (
        <Suspense fallback={null}>
          <ChangePasswordDialog opened onClose={() => setChanging(false)} />
        </Suspense>
      )}
    </>
  );
}

export default withMantine(UserMenu);
