import '@mantine/core/styles/Combobox.layer.css';
import { NativeSelect } from '@mantine/core';
import { ROLES, type Role, type User } from '@review-desk/shared/bff';
import { toast } from '../../../lib/toast.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { failureText } from '../model.ts';

/** A user's role, changed in place; an owner cannot change their own (the BFF decides the rest). */
export function RoleSelect({ user, self }: { user: User; self: boolean }) {
  const update = useUpdateUser();
  return (
    <NativeSelect
      aria-label={`Role of ${user.email}`}
      value={user.role}
      disabled={self || update.isPending}
      title={self ? 'You cannot change your own role' : undefined}
      data={ROLES.map((role) => ({ value: role, label: role }))}
      onChange={(event) => {
        const role = event.currentTarget.value as Role;
        update.mutate(
          { id: user.id, body: { role } },
          {
            onSuccess: () =>
              toast({ color: 'green', title: 'Role changed', message: `${user.email} is now ${role}.` }),
            onError: (error) =>
              toast({ color: 'red', title: 'Role not changed', message: failureText(error) }),
          },
        );
      }}
    />
  );
}
