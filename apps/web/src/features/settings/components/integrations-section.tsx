import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { useIntegrations } from '../api/get-integrations.ts';
import { SquareCard } from './square-card.tsx';
import { WebhooksCard } from './webhooks-card.tsx';

// Settings → Integrations, loaded after the rest of the page (its own chunk): requests that
// send themselves after a sale (Square), and the events other systems subscribe to.

export default function IntegrationsSection() {
  const integrations = useIntegrations();
  const square = integrations.data?.integrations.find((i) => i.source === 'square');
  return (
    <Stack gap="md" data-testid="integrations">
      <Title order={2} size="h3">
        Integrations
      </Title>
      <Text size="sm" c="dimmed">
        Requests that send themselves after a sale, and what other systems are told. Requests sent
        automatically are listed as such in Recent requests, with the sale they followed.
      </Text>
      {integrations.error && <ErrorState error={integrations.error} onRetry={() => integrations.refetch()} />}
      {!integrations.data && !integrations.error && (
        <Skeleton height={200} aria-label="Loading integrations" />
      )}
      {square && <SquareCard square={square} />}
      <WebhooksCard />
    </Stack>
  );
}
