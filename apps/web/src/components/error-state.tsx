import { Alert, Button, Stack, Text } from '@mantine/core';
import { describeError } from '../lib/describe-error.ts';
import { useCountdown } from '../lib/use-countdown.ts';

/** A failed read, told as what happened and what to do, with a Retry-After countdown for 429. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const description = describeError(error);
  const wait = useCountdown(description.retryAfterSeconds, description.receivedAt);
  return (
    <Alert color="red" variant="light" title={description.title} data-testid="error-state">
      <Stack gap={6}>
        {description.detail && <Text size="sm">{description.detail}</Text>}
        <Text size="sm">
          {description.meaning} <strong>{description.action}</strong>
        </Text>
        {wait > 0 && (
          <Text size="sm" fw={600}>
            The server asked to wait: you can try again in {wait} s.
          </Text>
        )}
        {onRetry && description.retryable && (
          <div>
            <Button variant="default" size="xs" onClick={onRetry} disabled={wait > 0}>
              {wait > 0 ? `Try again in ${wait} s` : 'Try again'}
            </Button>
          </div>
        )}
      </Stack>
    </Alert>
  );
}
