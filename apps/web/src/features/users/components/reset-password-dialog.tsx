import '../../../components/overlays.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import { Alert, Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { passwordSchema, type User } from '@review-desk/shared/bff';
import { type FormEvent, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { failureText, generatePassword } from '../model.ts';

/** Sets a new password for a user (the shared password rule, checked before sending). */
export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
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
              {failureText(update.error)}
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
