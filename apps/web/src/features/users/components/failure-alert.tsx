import { Alert } from '@mantine/core';
import { failureText } from '../model.ts';

/** Why a change to a user failed, under `title` ("Could not …"); nothing while there is no error. */
export function FailureAlert({ title, error }: { title: string; error: Error | null }) {
  if (!error) return null;
  return (
    <Alert color="red" title={title}>
      {failureText(error)}
    </Alert>
  );
}
