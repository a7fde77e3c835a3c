import '@mantine/core/styles/PasswordInput.layer.css';
import { Button, Group, PasswordInput } from '@mantine/core';
import { generatePassword } from '../model.ts';

/**
 * A password an owner sets for someone (a new user, or a reset): the field, "Generate a password"
 * and the form's submit button, as both dialogs show them.
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
  onChange: (password: string) => void;
  error: string | null | undefined;
  submitLabel: string;
  pending: boolean;
  autoFocus?: boolean;
}) {
  return (
    <>
      <PasswordInput
        label={label}
        description={description}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error}
        autoComplete="new-password"
        required
        data-autofocus={autoFocus || undefined}
      />
      <Group justify="space-between">
        <Button variant="subtle" onClick={() => onChange(generatePassword())}>
          Generate a password
        </Button>
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
