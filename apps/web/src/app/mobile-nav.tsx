import '../components/overlays.css';
import { Drawer, Stack, Text } from '@mantine/core';
import { useSession } from '../lib/session.ts';
import { withMantine } from './mantine.tsx';
import { NavItems } from './nav-items.tsx';

/** Navigation on narrow screens, in a drawer (loaded the first time the menu button is used). */
function MobileNav({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const me = useSession();
  return (
    <Drawer opened={opened} onClose={onClose} title="Review Desk" size={280} className="shell-drawer">
      <nav aria-label="Main (mobile)">
        <Stack gap={4}>
          <NavItems onNavigate={onClose} />
        </Stack>
      </nav>
      <Text size="xs" c="dimmed" mt="lg">
        Signed in as {me.user.email} ({me.user.role})
      </Text>
    </Drawer>
  );
}

export default withMantine(MobileNav);
