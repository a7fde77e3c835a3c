import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type ReplyTone, replyOutcomeWords } from '@review-desk/shared/reply-words';
import type { ReviewDetail } from '@review-desk/shared/review-reply';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { describeError } from '../../../lib/describe-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useCan } from '../../../lib/session.ts';
import { type Change, useChangeReview } from '../api/change-review.ts';
import { reviewActionsQueryOptions } from '../api/get-reply-aids.ts';
import { useReview } from '../api/get-review.ts';
import { platformLabel } from './badges.tsx';
import { ReplyForm } from './reply-form.tsx';
import { ReplyHistory } from './reply-history.tsx';

// The review panel's answering part (its own chunk, loaded with the panel): how the latest reply
// went, in honest words; the reply box; ignore, reopen and withdraw; and who answered before. It
// reads the review as it now is (its version): a change names that version, and a change someone
// made meanwhile is shown instead of being overwritten.

const TONE_COLOR: Record<ReplyTone, string> = {
  ok: 'green',
  pending: 'blue',
  warning: 'yellow',
  error: 'red',
};

/** Where a reply to this review goes, said before it is written. */
function destination(review: ReviewDetail): string {
  if (review.source.platform === 'google')
    return 'Your reply is posted publicly on Google, under the review.';
  if (review.source.platform === 'direct')
    return review.source.channel === 'link'
      ? 'This customer used a shared link: your reply is saved here, with no contact to send it to.'
      : 'Your reply goes privately to the customer, by the channel their request used. It is not published.';
  const on = platformLabel(review.source.platform);
  return `Reviews from ${on} are answered on ${on}: mark it ignored here once you have.`;
}

export function ReplyOutcome({ review }: { review: ReviewDetail }) {
  if (!review.reply) return null;
  const { tone, text } = replyOutcomeWords(review.reply, formatDateTime);
  return (
    <Alert
      color={TONE_COLOR[tone]}
      variant="light"
      data-testid="reply-outcome"
      data-state={review.reply.state}
    >
      <Text size="sm">{text}</Text>
    </Alert>
  );
}

export default function ReplyPanel({
  id,
  slug,
  businessName,
  onAnswered,
}: {
  id: string;
  /** The review's location (null: this page's). */
  slug: string | null;
  businessName: string;
  /** After a change the server took: the inbox moves on to the next review. */
  onAnswered?: (review: ReviewDetail) => void;
}) {
  const canReply = useCan('reviews:reply');
  const client = useQueryClient();
  const review = useReview(slug, id);
  const change = useChangeReview(slug, id);
  const [conflict, setConflict] = useState(false);

  async function apply(next: Change): Promise<boolean> {
    setConflict(false);
    try {
      const answered = await change.mutateAsync(next);
      void client.invalidateQueries({ queryKey: reviewActionsQueryOptions(slug, id).queryKey });
      onAnswered?.(answered);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'review_changed') setConflict(true);
      void client.invalidateQueries({ queryKey: reviewActionsQueryOptions(slug, id).queryKey });
      return false;
    }
  }

  if (review.error) return <ErrorState error={review.error} onRetry={() => review.refetch()} />;
  if (!review.data) return <Skeleton height={140} aria-label="Loading the reply" />;
  const current = review.data;
  const status = current.response_status;
  const failure = change.error && !conflict ? describeError(change.error) : null;
  return (
    <Stack gap="sm" data-testid="reply-panel">
      <Title order={3} size="h5">
        Answer
      </Title>
      <Text size="sm" c="dimmed">
        {destination(current)}
      </Text>
      <ReplyOutcome review={current} />
      {conflict && (
        <Alert color="yellow" variant="light" data-testid="reply-conflict">
          Someone else changed this review while you were writing; nothing of yours was sent. Its reply now
          reads as shown above. Send yours again to replace it.
        </Alert>
      )}
      {failure && (
        <Alert color="red" variant="light" data-testid="reply-failure" title={failure.title}>
          {failure.detail ?? failure.meaning} {failure.action}
        </Alert>
      )}
      {canReply ? (
        <>
          {current.platform !== 'facebook' && current.platform !== 'yelp' && (
            <ReplyForm
              review={current}
              slug={slug}
              businessName={businessName}
              busy={change.isPending}
              onSend={(text, key) => apply({ kind: 'reply', text, key, version: current.version })}
            />
          )}
          <Group gap="xs">
            {status === 'pending' && (
              <Button
                variant="default"
                size="xs"
                loading={change.isPending}
                onClick={() => apply({ kind: 'status', status: 'ignored', version: current.version })}
              >
                Ignore
              </Button>
            )}
            {status === 'ignored' && (
              <Button
                variant="default"
                size="xs"
                loading={change.isPending}
                onClick={() => apply({ kind: 'status', status: 'pending', version: current.version })}
              >
                Reopen
              </Button>
            )}
            {status === 'responded' && (
              <Button
                variant="default"
                color="red"
                size="xs"
                loading={change.isPending}
                onClick={() =>
                  apply({ kind: 'withdraw', version: current.version, key: crypto.randomUUID() })
                }
              >
                Withdraw reply
              </Button>
            )}
          </Group>
        </>
      ) : (
        <Text size="sm" c="dimmed" data-testid="reply-read-only">
          Your role can read reviews but not answer them.
        </Text>
      )}
      <ReplyHistory id={id} slug={slug} />
    </Stack>
  );
}
