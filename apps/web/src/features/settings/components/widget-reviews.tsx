import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import { Button, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { HIDE_REASON_LABELS, HIDE_REASONS, type HideReason } from '@review-desk/shared/widget';
import type { HiddenReview } from '@review-desk/shared/widget-schema';
import { useId, useState } from 'react';
import { Stars } from '../../../components/stars.tsx';
import { formatDate } from '../../../lib/format.ts';

// The owner's two controls over which reviews the widget shows: hiding one for what it says
// (never for its rating: docs/widget.md, "What an owner may and may not hide"), and showing a
// hidden one again.

/** Under a review of the preview: "Hide from the website…", then why, then confirm. */
export function HideControl({
  who,
  busy,
  onHide,
}: {
  /** How the review is signed, for the controls' names. */
  who: string;
  busy: boolean;
  onHide: (reason: HideReason) => void;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<HideReason | null>(null);
  const id = useId();
  if (!open)
    return (
      <div>
        <Button
          variant="subtle"
          size="compact-sm"
          className="widget-hide__open"
          onClick={() => setOpen(true)}
          aria-label={`Hide the review by ${who} from the website…`}
        >
          Hide from the website…
        </Button>
      </div>
    );
  return (
    <Stack gap="xs" className="widget-hide">
      <Radio.Group
        label={`Why hide the review by ${who}?`}
        description="Only for what it says, never for its rating. Visitors are told how many reviews are hidden, and its rating still counts in the average."
        value={reason}
        onChange={(value) => setReason(value as HideReason)}
        id={id}
      >
        <Stack gap={6} mt={6}>
          {HIDE_REASONS.map((r) => (
            <Radio key={r} value={r} label={HIDE_REASON_LABELS[r]} />
          ))}
        </Stack>
      </Radio.Group>
      <Group gap="xs">
        <Button
          size="xs"
          color="red"
          disabled={reason === null}
          loading={busy}
          onClick={() => reason && onHide(reason)}
        >
          Hide this review
        </Button>
        <Button size="xs" variant="default" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/** The reviews hidden from the website, why, since when, and the way back. */
export function HiddenReviews({
  hidden,
  total,
  busy,
  onShow,
}: {
  hidden: readonly HiddenReview[];
  total: number;
  busy: string | null;
  onShow: (reviewId: string) => void;
}) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="hidden-reviews-title">
      <Title order={3} size="h5" id="hidden-reviews-title">
        Hidden reviews
      </Title>
      {hidden.length === 0 ? (
        <Text size="sm" c="dimmed">
          None. Every review a customer agreed to share is shown.
        </Text>
      ) : (
        <ul className="widget-preview__list" data-testid="hidden-reviews">
          {hidden.map((review) => (
            <li key={review.id} className="widget-preview__review">
              <Stars rating={review.rating} />
              <Text size="sm" c="dimmed">
                {review.author ?? 'A customer'} · {formatDate(`${review.date}T12:00:00Z`)}
              </Text>
              {review.text && <Text className="widget-preview__text">{review.text}</Text>}
              <Text size="sm">
                Hidden on {formatDate(review.hiddenAt)} · {HIDE_REASON_LABELS[review.reason]}
              </Text>
              <div>
                <Button
                  size="compact-sm"
                  variant="default"
                  loading={busy === review.id}
                  onClick={() => onShow(review.id)}
                  aria-label={`Show the review by ${review.author ?? 'a customer'} again`}
                >
                  Show again
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {total > hidden.length && (
        <Text size="sm" c="dimmed">
          The {hidden.length} most recently hidden of {total}.
        </Text>
      )}
    </Stack>
  );
}
