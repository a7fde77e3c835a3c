import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { SEND_OUTCOME_MEANINGS, type SendHistoryEntry } from '@review-desk/shared/bff';
import { describeError } from '../../../lib/describe-error.ts';
import { formatAgo, formatDateTime } from '../../../lib/format.ts';
import { channelLabel } from '../channel-labels.ts';

export type RecentCheck = { recent: SendHistoryEntry[]; checkError: unknown };

/** Explicit confirmation before sending to a contact who got a request inside the frequency-cap window. */
export function ConfirmRecentDialog({
  check,
  capDays,
  onCancel,
  onConfirm,
}: {
  check: RecentCheck | null;
  capDays: number;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const latest = check?.recent[0];
  return (
    <Modal
      opened={check !== null}
      onClose={onCancel}
      title={latest ? 'This customer got a request recently' : 'Recent requests could not be checked'}
      centered
    >
      {check && (
        <Stack gap="md">
          {latest ? (
            <>
              <Text size="sm">
                A request went to this contact <strong>{formatAgo(latest.createdAt)}</strong> (
                {formatDateTime(latest.createdAt)}). Requests are capped at one per contact every {capDays}{' '}
                days: the service may refuse this one, and customers rarely welcome a second request.
              </Text>
              <List size="sm" spacing={4}>
                {check.recent.slice(0, 5).map((entry) => (
                  <List.Item key={entry.id}>
                    {formatDateTime(entry.createdAt)} · {channelLabel(entry.channel)} · {entry.contact} · by{' '}
                    {entry.sentBy} · {SEND_OUTCOME_MEANINGS[entry.outcome]}
                  </List.Item>
                ))}
              </List>
            </>
          ) : (
            <Text size="sm">
              The send history could not be read ({describeError(check.checkError).title.toLowerCase()}), so
              the dashboard cannot tell whether this customer got a request in the last {capDays} days.
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel} data-autofocus>
              Don’t send
            </Button>
            <Button color="red" onClick={onConfirm}>
              Send anyway
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
