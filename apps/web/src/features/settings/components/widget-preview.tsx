import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import type { WidgetShown } from '@review-desk/shared/widget-schema';
import type { ReactNode } from 'react';
import { Stars } from '../../../components/stars.tsx';
import { formatDate } from '../../../lib/format.ts';

/**
 * What visitors of the owner's website see, from the widget's own data and words (the service
 * writes them once for the script, the HTML and this preview), every review listed. `action`
 * adds the owner's control under a review (the n-th of `preview.reviews`).
 */
export function WidgetPreview({
  preview,
  action,
}: {
  preview: WidgetShown;
  action?: (index: number) => ReactNode;
}) {
  const { words } = preview;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Preview of the widget">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {words.heading}
        </Title>
        <Text fw={600}>
          {preview.summary.average !== null && (
            <>
              <Stars rating={Math.round(preview.summary.average)} />{' '}
            </>
          )}
          {words.summary}
        </Text>
        <Text size="sm" c="dimmed">
          {words.note}
        </Text>
        {preview.reviews.length === 0 ? (
          <Text size="sm" c="dimmed">
            {words.empty}
          </Text>
        ) : (
          <ul className="widget-preview__list" data-testid="widget-preview-reviews">
            {preview.reviews.map((review, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the data's own order, replaced as a whole
              <li key={i} className="widget-preview__review">
                <Stars rating={review.rating} />
                <Text size="sm" c="dimmed">
                  {review.author ?? words.anonymous} · {formatDate(`${review.date}T12:00:00Z`)}
                </Text>
                {review.text && <Text className="widget-preview__text">{review.text}</Text>}
                {action?.(i)}
              </li>
            ))}
          </ul>
        )}
        {words.hidden && (
          <Text size="sm" c="dimmed" data-testid="widget-preview-hidden">
            {words.hidden}
          </Text>
        )}
        {preview.sources.map((source, i) => (
          <Text key={source.platform} size="sm" c="dimmed">
            {words.sources[i]?.text}{' '}
            {source.url && (
              <Anchor href={source.url} target="_blank" rel="noopener noreferrer">
                {words.sources[i]?.link}
              </Anchor>
            )}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}
