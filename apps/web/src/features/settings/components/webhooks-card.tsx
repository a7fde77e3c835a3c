import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { fieldErrors } from '@review-desk/shared/envelope';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_WORDS,
  type WebhookEndpoint,
  type WebhookEventType,
  webhookCreateSchema,
} from '@review-desk/shared/webhooks';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { useWebhookChanges, useWebhooks } from '../api/webhooks.ts';
import { WebhookLog } from './webhook-log.tsx';

// Events out: the business's webhook endpoints. An owner adds one (an https address and the
// events it wants) and is shown its signing secret once; sends it a test event; rotates the
// secret (the old one keeps signing beside the new one for 24 hours); resumes one that was paused
// after three days of failures; reads its delivery log and sends an event again.

function Endpoint({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { act } = useWebhookChanges();
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const run = (action: 'rotate' | 'resume' | 'test' | 'remove') =>
    act.mutate(
      { id: endpoint.id, action },
      { onSuccess: (answer) => action === 'rotate' && setSecret((answer as { secret: string }).secret) },
    );
  return (
    <Paper withBorder p="sm" data-testid="webhook-endpoint">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} className="cell-break">
            {endpoint.url}
          </Text>
          <Badge
            color={endpoint.state === 'active' ? 'green' : 'red'}
            variant="light"
            style={{ flexShrink: 0 }}
          >
            {endpoint.state === 'active' ? 'Active' : 'Paused'}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {endpoint.events.join(', ')}
        </Text>
        {endpoint.state === 'paused' && (
          <Alert color="red" title="Paused: nothing is delivered to it" data-testid="webhook-paused">
            {endpoint.pausedReason} Events are kept in the log and go out once it is resumed.
          </Alert>
        )}
        {secret && (
          <Alert color="blue" title="The new signing secret — shown this once">
            <Code className="cell-break">{secret}</Code> The previous secret keeps signing beside it for 24
            hours.
          </Alert>
        )}
        <Group gap="xs">
          <Button size="compact-sm" variant="light" onClick={() => run('test')}>
            Send a test event
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? 'Hide the log' : 'Delivery log'}
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => run('rotate')}>
            Rotate secret
          </Button>
          {endpoint.state === 'paused' && (
            <Button size="compact-sm" onClick={() => run('resume')}>
              Resume
            </Button>
          )}
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => run('remove')}>
            Remove
          </Button>
        </Group>
        {act.error && (
          <Text size="sm" c="red">
            {act.error.message}
          </Text>
        )}
        {open && <WebhookLog id={endpoint.id} paused={endpoint.state === 'paused'} />}
      </Stack>
    </Paper>
  );
}

export function WebhooksCard() {
  const list = useWebhooks();
  const { create } = useWebhookChanges();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState<string | null>(null);

  const add = (event: FormEvent) => {
    event.preventDefault();
    const parsed = webhookCreateSchema.safeParse({ url, events });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error).fields);
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (made) => {
        setSecret(made.secret);
        setUrl('');
      },
      onError: (error) => error instanceof ApiError && error.fields && setErrors(error.fields),
    });
  };

  return (
    <Paper withBorder p="md" data-testid="webhooks-card">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Webhooks
        </Title>
        <Text size="sm" c="dimmed">
          Tell another system what happens here. Each event is signed (Standard Webhooks: webhook-id,
          webhook-timestamp, webhook-signature), retried for three days, and kept in the log for 30 days.
        </Text>
        {list.error && <Text c="red">The endpoints could not be read: {list.error.message}</Text>}
        {list.data?.webhooks.map((endpoint) => (
          <Endpoint key={endpoint.id} endpoint={endpoint} />
        ))}
        {secret && (
          <Alert
            color="blue"
            title="Signing secret — copy it now, it is shown this once"
            data-testid="webhook-secret"
          >
            <Code className="cell-break">{secret}</Code>
          </Alert>
        )}
        <form onSubmit={add} noValidate>
          <Stack gap="xs">
            <TextInput
              label="Endpoint address (https)"
              placeholder="https://example.com/review-desk-events"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={errors.url}
            />
            <Checkbox.Group
              label="Events"
              value={events}
              onChange={(value) => setEvents(value as WebhookEventType[])}
              error={errors.events}
            >
              <Stack gap={4} mt={4}>
                {WEBHOOK_EVENT_TYPES.map((type) => (
                  <Checkbox key={type} value={type} label={`${type} — ${WEBHOOK_EVENT_WORDS[type]}`} />
                ))}
              </Stack>
            </Checkbox.Group>
            {create.error && !(create.error instanceof ApiError && create.error.fields) && (
              <Alert color="red">{create.error.message}</Alert>
            )}
            <Group>
              <Button type="submit" loading={create.isPending}>
                Add endpoint
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
