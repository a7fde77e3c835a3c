import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { fieldErrors } from '@review-desk/shared/envelope';
import {
  AUTOMATIC_CONSENT_REMINDER,
  AUTOMATIC_DELAY_MINUTES_MAX,
  type Integration,
  squareUpdateSchema,
} from '@review-desk/shared/integrations';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import { useChangeSquare } from '../api/get-integrations.ts';

// Square, the first point of sale: connected with the signature key of the owner's Square webhook
// subscription (and, to reach customers by phone, an access token that reads customers). A
// completed payment with the customer's phone or email becomes a review request after the delay
// chosen here — only once automatic sends are on, beside the reminder that texting needs consent.

export function SquareCard({ square }: { square: Integration }) {
  const change = useChangeSquare();
  const [signatureKey, setSignatureKey] = useState('');
  const [accessToken, setAccessToken] = useState('');
  const [delay, setDelay] = useState(String(square.delayMinutes));
  const [automatic, setAutomatic] = useState(square.automaticSends);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const save = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      ...(signatureKey ? { signatureKey } : {}),
      ...(accessToken ? { accessToken } : {}),
      automaticSends: automatic,
      delayMinutes: Number(delay),
    };
    const parsed = squareUpdateSchema.safeParse(body);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error).fields);
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: () => {
        setSignatureKey('');
        setAccessToken('');
        toast({ message: 'Square saved.', color: 'green' });
      },
      onError: (error) => error instanceof ApiError && error.fields && setErrors(error.fields),
    });
  };

  return (
    <Paper withBorder p="md" data-testid="square-card">
      <form onSubmit={save} noValidate>
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3} size="h4">
              Square
            </Title>
            <Badge color={square.connected ? 'green' : 'gray'} variant="light">
              {square.connected ? 'Connected' : 'Not connected'}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            In Square’s Developer Console, add a webhook subscription for payment.created and payment.updated
            that posts to the address below, then paste its signature key here.
          </Text>
          {square.notificationUrl && (
            <Text size="sm" className="cell-break">
              Notification URL: <Code data-testid="square-url">{square.notificationUrl}</Code>
            </Text>
          )}
          <PasswordInput
            label={
              square.connected ? 'New signature key (leave empty to keep the current one)' : 'Signature key'
            }
            value={signatureKey}
            onChange={(e) => setSignatureKey(e.currentTarget.value)}
            error={errors.signatureKey}
            autoComplete="off"
          />
          <PasswordInput
            label="Access token with customer reading (optional: to text customers whose phone Square has)"
            description={
              square.readsCustomers ? 'A token is saved.' : 'Without one, only the payment’s email is used.'
            }
            value={accessToken}
            onChange={(e) => setAccessToken(e.currentTarget.value)}
            error={errors.accessToken}
            autoComplete="off"
          />
          <Switch
            label="Send a review request automatically after each completed payment"
            checked={automatic}
            onChange={(e) => setAutomatic(e.currentTarget.checked)}
          />
          <Alert color="yellow" title="Consent" data-testid="consent-reminder">
            {AUTOMATIC_CONSENT_REMINDER}
          </Alert>
          <TextInput
            label={`Minutes to wait after the payment (0 to ${AUTOMATIC_DELAY_MINUTES_MAX}; sending hours still apply)`}
            type="number"
            min={0}
            max={AUTOMATIC_DELAY_MINUTES_MAX}
            value={delay}
            onChange={(e) => setDelay(e.currentTarget.value)}
            error={errors.delayMinutes}
          />
          {square.connected && (
            <Text size="sm" c="dimmed">
              Requests made from Square so far: {square.requests}.
              {square.lastEventAt && ` Last notification: ${formatDateTime(square.lastEventAt)}.`}
            </Text>
          )}
          {change.error && !(change.error instanceof ApiError && change.error.fields) && (
            <Alert color="red">{change.error.message}</Alert>
          )}
          <Group>
            <Button type="submit" loading={change.isPending}>
              {square.connected ? 'Save Square' : 'Connect Square'}
            </Button>
            {square.connected && (
              <Button variant="subtle" color="red" onClick={() => change.mutate('disconnect')}>
                Disconnect
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
