import '../../../components/overlays.css';
import { passwordSchema, type User } from '@review-desk/shared/bff';
import { useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { FormDialog } from './form-dialog.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { PasswordOnce } from './password-once.tsx';

/** Sets a new password for a user (the shared password rule, checked before sending). */
export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const update = useUpdateUser();
  const [password, setPassword] = useState('');
  const [generated, setGenerated] = useState(false);
  const [set, setSet] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setPassword('');
    setGenerated(false);
    setSet(null);
    setError(null);
    update.reset();
    onClose();
  };
  const submit = () => {
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
          // A generated password is shown once more, to copy; a typed one the owner knows.
          if (generated) setSet(parsed.data);
          else close();
        },
      },
    );
  };
  return (
    <FormDialog
      opened={user !== null}
      title={user ? `New password for ${user.email}` : ''}
      failure={{ title: 'Could not change the password', error: update.error }}
      onClose={close}
      onSubmit={submit}
      done={
        user && set !== null ? <PasswordOnce email={user.email} password={set} onDone={close} /> : undefined
      }
    >
      <NewPasswordFields
        label="New password"
        description="At least 12 characters."
        value={password}
        onChange={(next, byGenerator) => {
          setPassword(next);
          setGenerated(byGenerator);
        }}
        error={error}
        submitLabel="Set password"
        pending={update.isPending}
        autoFocus
      />
    </FormDialog>
  );
}
