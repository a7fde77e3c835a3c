import '@mantine/core/styles/PasswordInput.layer.css';
import { Button, Group, PasswordInput } from '@mantine/core';
import { useState } from 'react';
import { generatePassword } from '../model.ts';

/**
 * A password an owner sets for someone (a new user, or a reset): the field, "Generate a password"
 * and the form's submit button, as both dialogs show them. A generated password is shown in the
 * field (and, once set, shown again to copy: PasswordOnce); `onChange` says whether it was.
 */
export function NewPasswordFields({
  label,
  description,
  value,
  onChange,
  error,
  submitLabel,
  pending,
  autoFocus = false,
}: {
  label: string;
  description: string;
  value: string;
  onChange: (password: string, generated: boolean) => void;
  error: string | null | undefined;
  submitLabel: string;
  pending: boolean;
  autoFocus?: boolean;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <>
      <PasswordInput
        label={label}
        description={description}
        value={value}
        visible={visible}
        onVisibilityChange={setVisible}
        onChange={(e) => onChange(e.currentTarget.value, false)}
        error={error}
        autoComplete="new-password"
        required
        data-autofocus={autoFocus || undefined}
      />
      <Group justify="space-between">
        <Button
          variant="subtle"
          onClick={() => {
            onChange(generatePassword(), true);
            setVisible(true);
          }}
        >
          Generate a password
        </Button>
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
