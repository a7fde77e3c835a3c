import './overlays.css';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/** "Leave without saving?" (components/leave-guard.tsx), inside the page's Mantine. */
export default function LeaveDialog({
  what,
  onStay,
  onLeave,
}: {
  what: string;
  onStay: () => void;
  onLeave: () => void;
}) {
  return (
    <Modal opened onClose={onStay} title="Leave without saving?">
      <Stack>
        <Text size="sm">
          Your changes to {what} are not saved yet. If you leave this page, they are lost.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onStay} data-autofocus>
            Stay and save
          </Button>
          <Button color="red" onClick={onLeave}>
            Leave without saving
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
