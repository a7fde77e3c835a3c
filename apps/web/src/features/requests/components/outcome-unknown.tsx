import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { requestsHref } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { Link } from '../../../lib/router.tsx';

/**
 * Neither success nor failure: the request may have reached the service (docs/api.md: resending
 * after a timeout may create a second request). Trying again reuses the same Idempotency-Key,
 * so the BFF answers with the stored result or refuses; it never sends twice.
 */
export function OutcomeUnknown({
  error,
  contact,
  pending,
  onRetrySame,
  onStartOver,
}: {
  error: unknown;
  contact: string | undefined;
  pending: boolean;
  onRetrySame: () => void;
  onStartOver: () => void;
}) {
  const detail =
    error instanceof ApiError ? error.message : 'The connection to the server broke before it answered.';
  return (
    <Alert
      color="yellow"
      variant="light"
      title="Outcome unknown: a request may have gone out"
      data-testid="send-unknown"
    >
      <Stack gap="sm">
        <Text size="sm">{detail}</Text>
        <Text size="sm">
          The dashboard did not get a definite answer, so the customer may or may not have received the
          request.
          <strong> Check Recent requests before sending again</strong>: if it is listed as sent, the customer
          has it.
        </Text>
        <Text size="sm" c="dimmed">
          “Try again” repeats this exact submission: the server recognises it and will not send it a second
          time.
        </Text>
        <Group gap="sm">
          <Button component={Link} to={requestsHref(contact)}>
            Check recent requests
          </Button>
          <Button variant="default" onClick={onRetrySame} loading={pending}>
            Try again
          </Button>
          <Button variant="subtle" onClick={onStartOver} disabled={pending}>
            Edit the request
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
