import { Text } from '@mantine/core';
import type { ReplyState } from '@review-desk/shared/review-reply';
import { formatDateTime } from '../../../lib/format.ts';
import { useReviewActions } from '../api/get-reply-aids.ts';

// Who answered this review from the dashboard, newest first (the dashboard's own journal): each
// reply, withdrawal, ignore and reopen, by whom, and how it went.

/** Short words for a line of history (the panel above says it in full for the latest). */
const STATE_WORDS: Record<ReplyState, string> = {
  sending: 'being sent',
  sent: 'sent to the customer',
  scheduled: 'held for sending hours',
  opted_out: 'saved, not sent (the customer opted out)',
  no_contact: 'saved, no contact to send it to',
  posting: 'being posted',
  posted: 'posted on Google',
  withdrawn: 'withdrawn',
  failed: 'not delivered',
  unknown: 'outcome unknown',
};

const DONE: Record<string, string> = {
  reply: 'replied',
  withdraw: 'withdrew the reply',
  ignore: 'ignored it',
  reopen: 'reopened it',
};

export function ReplyHistory({ id, slug }: { id: string; slug: string | null }) {
  const actions = useReviewActions(slug, id);
  const list = actions.data?.actions ?? [];
  if (list.length === 0) return null;
  return (
    <div data-testid="reply-history">
      <Text size="sm" fw={600} mb={4}>
        History
      </Text>
      <ul className="reply-history">
        {list.map((entry) => {
          const how =
            entry.outcome === 'done'
              ? entry.replyState
                ? STATE_WORDS[entry.replyState] + (entry.error ? `: ${entry.error}` : '')
                : 'done'
              : entry.outcome === 'refused'
                ? `refused: ${entry.error ?? 'no reason given'}`
                : entry.outcome === 'unknown'
                  ? 'outcome unknown'
                  : 'under way';
          return (
            <li key={entry.id}>
              <Text size="xs">
                <strong>{entry.by}</strong> {DONE[entry.action]} · {formatDateTime(entry.at)} · {how}
              </Text>
              {entry.text && (
                <Text size="xs" c="dimmed" className="prose" lineClamp={3}>
                  {entry.text}
                </Text>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
