import '@mantine/core/styles/Combobox.layer.css';
import '../../../components/overlays.css';
import { NativeSelect, TextInput } from '@mantine/core';
import { createUserSchema, type Role } from '@review-desk/shared/bff';
import { formErrors } from '@review-desk/shared/envelope';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { toast } from '../../../lib/toast.ts';
import { useCreateUser } from '../api/create-user.ts';
import { roleOptions } from '../model.ts';
import { FormDialog } from './form-dialog.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { PasswordOnce } from './password-once.tsx';

/** Adds a user: email, role and a first password, checked with the shared schema before sending. */
export function AddUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateUser();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('staff');
  const [password, setPassword] = useState('');
  const [generated, setGenerated] = useState(false);
  const [added, setAdded] = useState<{ email: string; password: string } | null>(null);
  const [errors, setErrors] = useState<Partial<Record<'email' | 'role' | 'password', string>>>({});

  const close = () => {
    setEmail('');
    setPassword('');
    setGenerated(false);
    setAdded(null);
    setRole('staff');
    setErrors({});
    create.reset();
    onClose();
  };
  const submit = () => {
    const parsed = createUserSchema.safeParse({ email: email.trim(), role, password });
    if (!parsed.success) {
      setErrors(formErrors(parsed.error, ['email', 'role', 'password']));
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
        // A generated password is shown once more, to copy; a typed one the owner knows.
        if (generated) setAdded({ email: user.email, password: parsed.data.password });
        else close();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
      },
    });
  };

  return (
    <FormDialog
      opened={opened}
      title="Add a user"
      failure={{ title: 'Could not add the user', error: create.error }}
      onClose={close}
      onSubmit={submit}
      done={added ? <PasswordOnce email={added.email} password={added.password} onDone={close} /> : undefined}
    >
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
      <NewPasswordFields
        label="Password"
        description="At least 12 characters. Share it safely; the user can be given a new one later."
        value={password}
        onChange={(next, byGenerator) => {
          setPassword(next);
          setGenerated(byGenerator);
        }}
        error={errors.password}
        submitLabel="Add user"
        pending={create.isPending}
      />
    </FormDialog>
  );
}
