import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import './website-widget.css';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  CopyButton,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { WidgetOwner } from '@review-desk/shared/widget-schema';
import { useState } from 'react';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { useChangeWidget } from '../api/change-widget.ts';
import { useWidget } from '../api/get-widget.ts';
import { WidgetPreview } from './widget-preview.tsx';
import { HiddenReviews, HideControl } from './widget-reviews.tsx';

// Settings → Website widget (loaded after the settings themselves: its own chunk). The snippet to
// paste, a preview of what visitors see, the reviews hidden for a content reason, and the switch.

function WidgetSettings({ widget }: { widget: WidgetOwner }) {
  const change = useChangeWidget();
  const [busy, setBusy] = useState<string | null>(null);
  // The switch shows the owner's choice at once; a refusal puts it back (and says why).
  const [switching, setSwitching] = useState<boolean | null>(null);
  const run = (key: string, variables: Parameters<typeof change.mutate>[0]) => {
    setBusy(key);
    if (variables.kind === 'switch') setSwitching(variables.enabled);
    change.mutate(variables, {
      onSettled: () => {
        setBusy(null);
        setSwitching(null);
      },
    });
  };

  return (
    <Stack gap="md">
      {change.error && <ErrorState error={change.error} />}
      <Stack gap={4}>
        <Checkbox
          label="Show the widget on my website"
          checked={switching ?? widget.enabled}
          disabled={busy === 'switch'}
          aria-describedby="widget-switch-help"
          onChange={(event) => run('switch', { kind: 'switch', enabled: event.currentTarget.checked })}
        />
        <Text size="sm" c="dimmed" id="widget-switch-help">
          Turned off, the widget shows nothing where the snippet is (the browser’s console says why), and the
          public page says the reviews are not shown.
        </Text>
      </Stack>
      {!widget.enabled && (
        <Alert color="yellow" title="The widget is off" data-testid="widget-off">
          Visitors of your website see no reviews. The preview below is what they would see.
        </Alert>
      )}

      <Stack gap={6}>
        <figure className="widget-snippet" aria-labelledby="widget-snippet-title">
          <Text component="figcaption" id="widget-snippet-title" fw={500} size="sm">
            Snippet to paste into your website
          </Text>
          <Text size="xs" c="dimmed">
            Paste it where the reviews should appear. Visitors without JavaScript get the link to your public
            page of reviews.
          </Text>
          <pre className="widget-snippet__code" data-testid="widget-snippet">
            <code>{widget.snippet}</code>
          </pre>
        </figure>
        <Group gap="sm">
          <CopyButton value={widget.snippet}>
            {({ copied, copy }) => (
              <Button size="xs" variant={copied ? 'light' : 'filled'} onClick={copy}>
                {copied ? 'Snippet copied' : 'Copy snippet'}
              </Button>
            )}
          </CopyButton>
          <Anchor href={widget.urls.page} target="_blank" rel="noopener" size="sm">
            Your public page of reviews
          </Anchor>
          <Anchor href={widget.urls.embed} target="_blank" rel="noopener" size="sm">
            The widget as HTML (for an iframe)
          </Anchor>
        </Group>
      </Stack>

      <WidgetPreview
        preview={widget.preview}
        action={(i) => {
          const review = widget.shown[i];
          if (!review) return null;
          return (
            <HideControl
              // A control per review: its open state never passes to the review that takes its place.
              key={review.id}
              who={review.author ?? 'a customer'}
              busy={busy === review.id}
              onHide={(reason) => run(review.id, { kind: 'hide', reviewId: review.id, reason })}
            />
          );
        }}
      />
      <HiddenReviews
        hidden={widget.hidden}
        total={widget.hiddenTotal}
        busy={busy}
        onShow={(reviewId) => run(reviewId, { kind: 'show', reviewId })}
      />
    </Stack>
  );
}

export default function WebsiteWidget() {
  const widget = useWidget();
  const notOffered = widget.error instanceof ApiError && widget.error.code === 'widget_not_offered';
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="website-widget-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="website-widget-title">
          Website widget
        </Title>
        <Text size="sm" c="dimmed">
          Your reviews on your own website. Only reviews whose customers agreed on the review page appear,
          signed with a first name and initial; every rating, newest first. The average counts every review of
          the last 12 months. Reviews from other sites appear as their figures and a link.
        </Text>
        {notOffered && (
          <Alert color="blue" title="Not offered by the review service" data-testid="widget-not-offered">
            The review service this dashboard is connected to does not offer a website widget.
          </Alert>
        )}
        {widget.error && !notOffered && <ErrorState error={widget.error} onRetry={() => widget.refetch()} />}
        {!widget.data && !widget.error && <Skeleton height={240} aria-label="Loading the website widget" />}
        {widget.data && <WidgetSettings widget={widget.data} />}
      </Stack>
    </Paper>
  );
}
