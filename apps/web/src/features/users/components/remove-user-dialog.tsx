import '../../../components/overlays.css';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { User } from '@review-desk/shared/bff';
import { toast } from '../../../lib/toast.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { FailureAlert } from './failure-alert.tsx';

/** Removes a user after a confirmation that says what it does. */
export function RemoveUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const remove = useDeleteUser();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={user !== null} onClose={close} title="Remove this user?">
      {user && (
        <Stack>
          <Text size="sm">
            {user.email} will be signed out and can no longer sign in. Requests they sent stay in the history.
          </Text>
          <FailureAlert title="Could not remove the user" error={remove.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              Keep
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(user.id, {
                  onSuccess: () => {
                    toast({ title: 'User removed', message: `${user.email} can no longer sign in.` });
                    close();
                  },
                })
              }
            >
              Remove
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
