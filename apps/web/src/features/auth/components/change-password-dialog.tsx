import '@mantine/core/styles/PasswordInput.layer.css';
import '../../../components/overlays.css';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { changeOwnPasswordSchema } from '@review-desk/shared/bff';
import { formErrors } from '@review-desk/shared/envelope';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { describeError } from '../../../lib/describe-error.ts';
import { toast } from '../../../lib/toast.ts';
import { useChangePassword } from '../api/change-password.ts';

const FIELDS = ['currentPassword', 'newPassword'] as const;
type Errors = Partial<Record<(typeof FIELDS)[number], string>>;

/**
 * Any user changes their own password from the account menu: the current one, then the new one
 * (the shared rule, checked before sending). Their other sessions end; this one carries on.
 */
export default function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const close = () => {
    setCurrent('');
    setNext('');
    setErrors({});
    change.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = changeOwnPasswordSchema.safeParse({ currentPassword: current, newPassword: next });
    if (!parsed.success) {
      setErrors(formErrors(parsed.error, FIELDS));
      return;
    }
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: () => {
        toast({
          color: 'green',
          title: 'Password changed',
          message: 'You stay signed in here; anywhere else you were signed in, you were signed out.',
        });
        close();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
      },
    });
  };
  const general =
    change.error && !(change.error instanceof ApiError && change.error.fields) ? change.error : null;
  return (
    <Modal opened={opened} onClose={close} title="Change your password">
      <form onSubmit={submit} noValidate aria-label="Change your password">
        <Stack>
          {general && (
            <Alert color="red" title={describeError(general).title}>
              {describeError(general).detail ?? describeError(general).action}
            </Alert>
          )}
          <PasswordInput
            label="Current password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={errors.currentPassword}
            autoComplete="current-password"
            required
            data-autofocus
          />
          <PasswordInput
            label="New password"
            description="At least 12 characters."
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={errors.newPassword}
            autoComplete="new-password"
            required
          />
          <Text size="xs" c="dimmed">
            Anywhere else you are signed in with this account is signed out.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
