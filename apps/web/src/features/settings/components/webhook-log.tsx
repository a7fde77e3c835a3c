import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { DataTable } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useDeliveries, useWebhookChanges } from '../api/webhooks.ts';

// One endpoint's delivery log (30 days), newest first, ten at a time: each event, what the
// endpoint last answered, and "Send again" — the same event, with the same webhook-id.

const STATE_WORDS = {
  pending: 'Waiting to retry',
  delivering: 'Being delivered',
  delivered: 'Delivered',
  failed: 'Failed',
} as const;

export function WebhookLog({ id, paused }: { id: string; paused: boolean }) {
  const [page, setPage] = useState(1);
  const log = useDeliveries(id, page);
  const { resend } = useWebhookChanges();
  const data = log.data;
  if (log.error)
    return (
      <Text size="sm" c="red">
        The log could not be read: {log.error.message}
      </Text>
    );
  if (!data) return <Text size="sm">Loading the log…</Text>;
  if (data.total === 0)
    return (
      <Text size="sm" c="dimmed">
        No event yet.
      </Text>
    );
  return (
    <div>
      <DataTable
        label="Deliveries"
        columns={['Event', 'When', 'State', 'Tries', 'Last answer', { hidden: 'Action' }]}
      >
        {data.deliveries.map((d) => (
          <tr key={d.id} data-testid="delivery-row">
            <td data-label="Event" className="cell-break">
              {d.type}
              <Text size="xs" c="dimmed">
                {d.eventId}
              </Text>
            </td>
            <td data-label="When" className="cell-nowrap">
              {formatDateTime(d.createdAt)}
            </td>
            <td data-label="State">
              {STATE_WORDS[d.state]}
              {d.state === 'pending' && (paused || d.nextAttemptAt) && (
                <Text size="xs" c="dimmed">
                  {paused ? 'held until the endpoint is resumed' : `next ${formatDateTime(d.nextAttemptAt)}`}
                </Text>
              )}
            </td>
            <td data-label="Tries">{d.attempts}</td>
            <td data-label="Last answer" className="cell-break">
              {d.lastStatus ? `HTTP ${d.lastStatus}` : (d.lastError ?? '—')}
            </td>
            <td className="cell-action">
              <Button
                size="compact-xs"
                variant="light"
                disabled={d.state === 'delivering'}
                onClick={() => resend.mutate({ id, delivery: d.id })}
              >
                Send again
              </Button>
            </td>
          </tr>
        ))}
      </DataTable>
      <Group gap="xs" mt="xs">
        <Button size="compact-sm" variant="default" disabled={page === 1} onClick={() => setPage(page - 1)}>
          Newer
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          disabled={page * data.limit >= data.total}
          onClick={() => setPage(page + 1)}
        >
          Older
        </Button>
        <Text size="xs" c="dimmed">
          {data.total} in the last 30 days
        </Text>
      </Group>
    </div>
  );
}
