import { Text } from '@mantine/core';
import type { SendHistoryEntry } from '@review-desk/shared/bff';
import { LINK_CREATED } from '@review-desk/shared/link-created';
import type { RequestRecord } from '@review-desk/shared/requests';
import { StateBadge } from '../../../components/state-badge.tsx';
import { LegStates } from './leg-state.tsx';
import { OutcomeBadge } from './outcome-badge.tsx';

// One clear state per request in Recent requests: what the service answered when that is all there
// is to say (not sent, unknown, still sending), a link as a link, and for an accepted message its
// own delivery state when the service reports it — never "sent" beside another state that
// contradicts it.

export function RequestState({
  entry,
  record,
  now,
}: {
  entry: SendHistoryEntry;
  /** What the service knows of its messages (the requests extension); absent: not known. */
  record: RequestRecord | undefined;
  now: number;
}) {
  const accepted = entry.outcome === 'sent' || entry.outcome === 'warning';
  return (
    <>
      {!accepted ? (
        <OutcomeBadge outcome={entry.outcome} />
      ) : entry.channel === 'link' ? (
        <StateBadge
          label={LINK_CREATED.label}
          meaning={LINK_CREATED.meaning}
          tone="gray"
          data-outcome="link"
        />
      ) : record && record.legs.length > 0 ? (
        <LegStates record={record} now={now} />
      ) : (
        <OutcomeBadge outcome={entry.outcome} />
      )}
      {entry.warning && (
        <Text size="xs" className="outcome-note outcome-note--warning">
          {entry.warning}
        </Text>
      )}
      {entry.error && entry.outcome !== 'warning' && (
        <Text size="xs" c="dimmed" className="outcome-note">
          {entry.error}
        </Text>
      )}
    </>
  );
}
