import { Stack, Text, Title } from '@mantine/core';
import type { RequestList } from '@review-desk/shared/requests';
import { DataTable } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { channelLabel } from '../channel-labels.ts';
import { LegStates } from './leg-state.tsx';

// Requests no one sent from this dashboard: a point of sale's (Settings → Integrations), each
// with where its contact came from — the source and the sale it followed — and its delivery.

const SOURCE_WORDS: Record<string, string> = { square: 'Square payment' };

export function AutomaticRequests({ list, now }: { list: RequestList | undefined; now: number }) {
  const automatic = (list?.requests ?? []).filter((r) => r.automatic);
  if (automatic.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="automatic-requests">
      <Title order={2} size="h4">
        Sent automatically
      </Title>
      <Text size="sm" c="dimmed">
        Requests made after a sale by a connected point of sale, with the sale their contact came from.
      </Text>
      <DataTable columns={['When', 'Channel', 'Source', 'Delivery']} label="Requests sent automatically">
        {automatic.map((record) => (
          <tr key={record.id} data-testid="automatic-row">
            <td data-label="When" className="cell-nowrap">
              {formatDateTime(record.scheduledFor ?? record.createdAt)}
            </td>
            <td data-label="Channel">{channelLabel(record.channel)}</td>
            <td data-label="Source" className="cell-break">
              Automatic · {SOURCE_WORDS[record.automatic!.source] ?? record.automatic!.source}{' '}
              {record.automatic!.id}
            </td>
            <td data-label="Delivery">
              <LegStates record={record} now={now} />
            </td>
          </tr>
        ))}
      </DataTable>
    </Stack>
  );
}
