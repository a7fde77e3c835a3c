import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { fieldErrors } from '@review-desk/shared/envelope';
import { googleConnectBodySchema } from '@review-desk/shared/google';
import { type FormEvent, useState } from 'react';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { describeError } from '../../../lib/describe-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useChangeGoogleConnection, useGoogleConnection } from '../api/google.ts';

// The location's Google Business Profile: connected (its Google reviews are synced and answered
// from the dashboard), waiting for its owner (Google refused the token or the location), or not
// connected. Connecting takes the account id, the location id and an OAuth refresh token
// (docs/settings.md, "Google Business Profile": where to find each).

const SETUP = 'https://developers.google.com/my-business/content/basic-setup';

export default function GoogleConnection() {
  const google = useGoogleConnection();
  const change = useChangeGoogleConnection();
  const [form, setForm] = useState({ accountId: '', locationId: '', refreshToken: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const connection = google.data?.connection ?? null;

  async function connect(event: FormEvent) {
    event.preventDefault();
    const parsed = googleConnectBodySchema.safeParse(form);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error).fields);
    setErrors({});
    try {
      await change.mutateAsync(parsed.data);
      setForm({ accountId: '', locationId: '', refreshToken: '' });
    } catch (error) {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
    }
  }

  const failure =
    change.error && !(change.error instanceof ApiError && change.error.fields)
      ? describeError(change.error)
      : null;
  if (google.error && !(google.error instanceof ApiError && google.error.code === 'settings_not_offered'))
    return <ErrorState error={google.error} onRetry={() => google.refetch()} />;
  return (
    <Paper withBorder p="md" data-testid="google-connection">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Google Business Profile
        </Title>
        <Text size="sm" c="dimmed">
          Connect this location’s Google listing: its Google reviews appear in the inbox, and replies written
          here are posted on Google. Google’s own rules apply (
          <Anchor href={SETUP} className="prose-link">
            Business Profile APIs
          </Anchor>
          ).
        </Text>
        {connection && (
          <Alert
            color={connection.state === 'connected' ? 'green' : 'yellow'}
            variant="light"
            data-testid="google-state"
            title={connection.state === 'connected' ? 'Connected' : 'Needs you: connect it again'}
          >
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              accounts/{connection.accountId}/locations/{connection.locationId} · {connection.reviews} Google
              reviews ·{' '}
              {connection.lastSyncAt ? `last read ${formatDateTime(connection.lastSyncAt)}` : 'not read yet'}
            </Text>
            {connection.problem && <Text size="sm">{connection.problem}</Text>}
            {connection.lastError && (
              <Text size="sm">The last read failed: {connection.lastError}. It is tried again later.</Text>
            )}
          </Alert>
        )}
        <form onSubmit={connect}>
          <Stack gap="xs">
            <Group grow align="flex-start">
              <TextInput
                label="Account id"
                description="accounts/<number>"
                value={form.accountId}
                error={errors.accountId}
                onChange={(e) => setForm({ ...form, accountId: e.currentTarget.value })}
              />
              <TextInput
                label="Location id"
                description="locations/<number>"
                value={form.locationId}
                error={errors.locationId}
                onChange={(e) => setForm({ ...form, locationId: e.currentTarget.value })}
              />
            </Group>
            <PasswordInput
              label="Refresh token"
              description="Kept encrypted by the review service; never shown again."
              autoComplete="off"
              value={form.refreshToken}
              error={errors.refreshToken}
              onChange={(e) => setForm({ ...form, refreshToken: e.currentTarget.value })}
            />
            {failure && (
              <Alert color="red" variant="light" title={failure.title}>
                {failure.detail ?? failure.meaning} {failure.action}
              </Alert>
            )}
            <Group gap="xs">
              <Button type="submit" size="xs" loading={change.isPending}>
                {connection ? 'Connect again' : 'Connect Google'}
              </Button>
              {connection && (
                <Button variant="default" color="red" size="xs" onClick={() => change.mutate(null)}>
                  Disconnect
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
