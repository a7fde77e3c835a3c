import '@mantine/core/styles/Combobox.layer.css';
import '../../../components/overlays.css';
import { Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { ROLES, type Role, type User } from '@review-desk/shared/bff';
import { useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { failureText, grantsMore, roleHelp } from '../model.ts';

/**
 * A user's role, changed in place; an owner cannot change their own (the BFF decides the rest).
 * A change that lets the user do more (staff to manager, anyone to owner) is confirmed first,
 * saying what it allows: a slip of the dropdown must not hand out the keys.
 */
export function RoleSelect({ user, self }: { user: User; self: boolean }) {
  const update = useUpdateUser();
  const [asking, setAsking] = useState<Role | null>(null);
  const change = (role: Role) =>
    update.mutate(
      { id: user.id, body: { role } },
      {
        onSuccess: () =>
          toast({ color: 'green', title: 'Role changed', message: `${user.email} is now ${role}.` }),
        onError: (error) => toast({ color: 'red', title: 'Role not changed', message: failureText(error) }),
      },
    );
  return (
    <>
      <NativeSelect
        aria-label={`Role of ${user.email}`}
        value={user.role}
        disabled={self || update.isPending}
        title={self ? 'You cannot change your own role' : undefined}
        data={ROLES.map((role) => ({ value: role, label: role }))}
        onChange={(event) => {
          const role = event.currentTarget.value as Role;
          if (grantsMore(user.role, role)) setAsking(role);
          else change(role);
        }}
      />
      <Modal
        opened={asking !== null}
        onClose={() => setAsking(null)}
        title={`Make ${user.email} ${asking ?? ''}?`}
      >
        {asking && (
          <Stack>
            <Text size="sm">
              As {asking}, {user.email} can do more than now: {roleHelp(asking).toLowerCase()}. The change
              applies at once, to every location they reach.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(null)} data-autofocus>
                Keep {user.role}
              </Button>
              <Button
                onClick={() => {
                  change(asking);
                  setAsking(null);
                }}
              >
                Make {asking}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
