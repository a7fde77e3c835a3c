import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import {
  askAgainFrom,
  CAPPED_OUTCOMES,
  SEND_OUTCOME_MEANINGS,
  type SendHistoryEntry,
} from '@review-desk/shared/bff';
import { describeError } from '../../../lib/describe-error.ts';
import { formatAgo, formatDate, formatDateTime } from '../../../lib/format.ts';
import { channelLabel } from '../channel-labels.ts';

export type RecentCheck = { recent: SendHistoryEntry[]; checkError: unknown };

/**
 * The earlier request the service will hold against this one: the newest it accepted inside the
 * cap window. With one, the service refuses a new request to this contact, so none is offered.
 */
export function cappingSend(check: RecentCheck): SendHistoryEntry | undefined {
  return check.recent.find((entry) => CAPPED_OUTCOMES.includes(entry.outcome));
}

/**
 * Before sending to a contact who got a request inside the frequency-cap window. When the service
 * accepted one, it would refuse this: the dialog says when they can be asked again and offers a
 * review link instead (links message nobody, so no cap applies). When the earlier outcome is not
 * known, or the history could not be read, the service decides: sending is offered, plainly.
 */
export function RecentRequestDialog({
  check,
  capDays,
  onCancel,
  onSend,
  onLink,
}: {
  check: RecentCheck | null;
  capDays: number;
  onCancel: () => void;
  onSend: () => void;
  onLink: () => void;
}) {
  const capping = check ? cappingSend(check) : undefined;
  const latest = capping ?? check?.recent[0];
  const title = capping
    ? 'This customer was asked recently'
    : latest
      ? 'This customer may have been asked recently'
      : 'Recent requests could not be checked';
  return (
    <Modal opened={check !== null} onClose={onCancel} title={title} centered>
      {check && (
        <Stack gap="md">
          {latest ? (
            <>
              <Text size="sm">
                A request went to this contact <strong>{formatAgo(latest.createdAt)}</strong> (
                {formatDateTime(latest.createdAt)}). The review service takes one request per customer every{' '}
                {capDays} days.{' '}
                {capping ? (
                  <>
                    It would refuse another: you can ask again from{' '}
                    <strong data-testid="ask-again">
                      {formatDate(askAgainFrom(capping.createdAt, capDays).toISOString())}
                    </strong>
                    . A review link asks nobody by message, so you can share one now.
                  </>
                ) : (
                  'Whether that one reached the service is not known: if it did, the service refuses this one.'
                )}
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
              the dashboard cannot tell whether this customer got a request in the last {capDays} days. If
              they did, the service refuses this one and nothing is sent.
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel} data-autofocus={capping ? undefined : true}>
              {capping ? 'Change the contact' : 'Don’t send'}
            </Button>
            {capping ? (
              <Button onClick={onLink} data-autofocus>
                Create a review link instead
              </Button>
            ) : (
              <Button onClick={onSend}>Send</Button>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
