import { Anchor, Stack, Text, Title } from '@mantine/core';
import { DataTable } from '../../../components/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { Link } from '../../../lib/router.tsx';
import { useBulkSends } from '../api/get-bulk-sends.ts';
import { numberFormat } from '../model.ts';

// The location's earlier list sends: when, who started each, where it stands; each opens its
// progress and results.

const STATUS: Record<string, string> = {
  running: 'Sending',
  paused: 'Paused',
  done: 'Finished',
  cancelled: 'Cancelled',
};

export function PastLists() {
  const lists = useBulkSends();
  const jobs = lists.data?.jobs ?? [];
  if (jobs.length === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Earlier lists
      </Title>
      <DataTable label="Earlier lists" columns={['Started', 'By', 'Status', 'Sent', 'Rows']}>
        {jobs.map((job) => (
          <tr key={job.id}>
            <td>
              <Anchor component={Link} to={`${paths.bulk}?job=${encodeURIComponent(job.id)}`}>
                {new Date(job.createdAt).toLocaleString()}
              </Anchor>
            </td>
            <td>{job.createdBy}</td>
            <td>{STATUS[job.status] ?? job.status}</td>
            <td>{numberFormat(job.counts.sent + job.counts.warning)}</td>
            <td>{numberFormat(job.counts.total)}</td>
          </tr>
        ))}
      </DataTable>
      {lists.isError && <Text size="sm">The earlier lists could not be read.</Text>}
    </Stack>
  );
}
