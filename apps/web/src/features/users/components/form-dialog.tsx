import { Modal, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { FailureAlert } from './failure-alert.tsx';

/** A dialog holding one form: why the last try failed, if it did ("Could not …"), above the fields. */
export function FormDialog({
  opened,
  title,
  failure,
  onClose,
  onSubmit,
  children,
  done,
}: {
  opened: boolean;
  title: string;
  failure: { title: string; error: Error | null };
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
  /** Shown instead of the form once it has done its work (a generated password to copy). */
  done?: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      {done ?? (
        <form onSubmit={submit} noValidate>
          <Stack>
            <FailureAlert title={failure.title} error={failure.error} />
            {children}
          </Stack>
        </form>
      )}
    </Modal>
  );
}
