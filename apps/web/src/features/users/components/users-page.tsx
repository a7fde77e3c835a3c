import '@mantine/core/styles/Badge.layer.css';
import '../../../components/overlays.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  PasswordInput,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { createUserSchema, passwordSchema, ROLES, type Role, type User } from '@review-desk/shared/bff';
import { type FormEvent, useState } from 'react';
import { ErrorState } from '../../../components/error-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { describeError } from '../../../lib/describe-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast.ts';
import { useCreateUser } from '../api/create-user.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { useUsers } from '../api/get-users.ts';
import { useUpdateUser } from '../api/update-user.ts';

const ROLE_HELP: Record<Role, string> = {
  owner: 'Everything, including managing users',
  manager: 'Reviews, analytics, sending requests',
  staff: 'Sending requests and reading reviews',
};

function roleOptions() {
  return ROLES.map((role) => ({
    value: role,
    label: `${role[0]!.toUpperCase()}${role.slice(1)}: ${ROLE_HELP[role]}`,
  }));
}

/** A strong random password an owner can hand over (the user should change it). */
function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  const described = describeError(error);
  return `${described.title}. ${described.action}`;
}

function AddUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateUser();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('staff');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const close = () => {
    setEmail('');
    setPassword('');
    setRole('staff');
    setErrors({});
    create.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createUserSchema.safeParse({ email: email.trim(), role, password });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '');
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (user) => {
        toast({
          color: 'green',
          title: 'User added',
          message: `${user.email} can now sign in as ${user.role}.`,
        });
        close();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
      },
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Add a user">
      <form onSubmit={submit} noValidate>
        <Stack>
          {create.error && (
            <Alert color="red" title="Could not add the user">
              {errorText(create.error)}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            required
            data-autofocus
          />
          <NativeSelect
            label="Role"
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as Role)}
            data={roleOptions()}
            error={errors.role}
          />
          <PasswordInput
            label="Password"
            description="At least 12 characters. Share it safely; the user can be given a new one later."
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
            autoComplete="new-password"
            required
          />
          <Group justify="space-between">
            <Button variant="subtle" onClick={() => setPassword(generatePassword())}>
              Generate a password
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add user
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const update = useUpdateUser();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setPassword('');
    setError(null);
    update.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    const parsed = passwordSchema.safeParse(password);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid password');
      return;
    }
    setError(null);
    update.mutate(
      { id: user.id, body: { password: parsed.data } },
      {
        onSuccess: () => {
          toast({ color: 'green', title: 'Password changed', message: `${user.email} has a new password.` });
          close();
        },
      },
    );
  };
  return (
    <Modal opened={user !== null} onClose={close} title={user ? `New password for ${user.email}` : ''}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {update.error && (
            <Alert color="red" title="Could not change the password">
              {errorText(update.error)}
            </Alert>
          )}
          <PasswordInput
            label="New password"
            description="At least 12 characters."
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={error}
            autoComplete="new-password"
            data-autofocus
          />
          <Group justify="space-between">
            <Button variant="subtle" onClick={() => setPassword(generatePassword())}>
              Generate a password
            </Button>
            <Button type="submit" loading={update.isPending}>
              Set password
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RemoveUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
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
          {remove.error && (
            <Alert color="red" title="Could not remove the user">
              {errorText(remove.error)}
            </Alert>
          )}
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

function RoleSelect({ user, self }: { user: User; self: boolean }) {
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
            onError: (error) => toast({ color: 'red', title: 'Role not changed', message: errorText(error) }),
          },
        );
      }}
    />
  );
}

export default function UsersPage() {
  const me = useSession();
  const users = useUsers();
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<User | null>(null);
  const [removing, setRemoving] = useState<User | null>(null);

  return (
    <Stack gap="md">
      <PageHeader
        title="Users"
        lead="Who can sign in to this Review Desk, and what their role lets them do."
        actions={<Button onClick={() => setAdding(true)}>Add user</Button>}
      />
      {users.error && <ErrorState error={users.error} onRetry={() => users.refetch()} />}
      {!users.data && !users.error && <Skeleton height={160} aria-label="Loading users" />}
      {users.data && (
        <table className="data-table users-table">
          <thead>
            <tr>
              <th>Email</th>
              <th>Role</th>
              <th>Added</th>
              <th>Last sign-in</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((user) => {
              const self = user.id === me.user.id;
              return (
                <tr key={user.id} data-testid="user-row">
                  <td data-label="Email" className="cell-break cell-wide">
                    {user.email}{' '}
                    {self && (
                      <Badge size="xs" variant="outline">
                        you
                      </Badge>
                    )}
                  </td>
                  <td data-label="Role">
                    <RoleSelect user={user} self={self} />
                  </td>
                  <td data-label="Added">{formatDateTime(user.createdAt)}</td>
                  <td data-label="Last sign-in">
                    {user.lastLoginAt ? (
                      formatDateTime(user.lastLoginAt)
                    ) : (
                      <span className="muted">Never</span>
                    )}
                  </td>
                  <td className="cell-action cell-wide">
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        onClick={() => setResetting(user)}
                        aria-label={`Reset password of ${user.email}`}
                      >
                        Reset password
                      </Button>
                      {!self && (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          onClick={() => setRemoving(user)}
                          aria-label={`Remove ${user.email}`}
                        >
                          Remove
                        </Button>
                      )}
                    </Group>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <AddUserDialog opened={adding} onClose={() => setAdding(false)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <RemoveUserDialog user={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}
