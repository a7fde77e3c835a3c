import '../../../components/field-list.css';
import '@mantine/core/styles/Badge.layer.css';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  CopyButton,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { describeSendTime } from '@review-desk/shared/quiet-hours';
import { SEND_STATUS_MEANINGS, SEND_STATUS_SCHEDULED, type SendResult } from '@review-desk/shared/send';
import { QRCodeSVG } from 'qrcode.react';
import { requestsHref } from '../../../config/paths.ts';
import { Link } from '../../../lib/router.tsx';
import { channelLabel } from '../channel-labels.ts';
import { localZone } from './leg-state.tsx';

/**
 * The honest result of a send (docs/api.md, "The send's answer"): "sent" means accepted for
 * delivery — not delivered and not a review; a warning (one leg of "both" failed) is the first
 * thing the user reads.
 */
export function SendResultPanel({
  result,
  replayed,
  contact,
  onAnother,
}: {
  result: SendResult;
  replayed: boolean;
  contact: string | undefined;
  onAnother: () => void;
}) {
  const meaning =
    SEND_STATUS_MEANINGS[result.status] ??
    'This is the status the service reported; its exact meaning is not documented. It is not proof of delivery or of a review.';
  const isLink = result.channel === 'link';
  const scheduledFor =
    result.status === SEND_STATUS_SCHEDULED && result.scheduledFor ? Date.parse(result.scheduledFor) : null;
  return (
    <Paper withBorder p="lg" radius="md" data-testid="send-result">
      <Stack gap="md">
        {result.warning && (
          <Alert
            color="orange"
            variant="filled"
            title="Delivery problem"
            role="alert"
            data-testid="send-warning"
          >
            {result.warning}
          </Alert>
        )}
        <div>
          <Title order={2} size="h3">
            {isLink
              ? 'Review link created'
              : result.warning
                ? 'Request accepted, with a problem'
                : scheduledFor !== null
                  ? `Request scheduled for ${describeSendTime(scheduledFor, Date.now(), localZone())}`
                  : 'Request accepted for delivery'}
          </Title>
          {replayed && (
            <Text size="sm" c="dimmed">
              This is the stored result of your earlier submission: nothing was sent again.
            </Text>
          )}
        </div>
        <dl className="field-list">
          <div className="field-list__row">
            <dt>Status</dt>
            <dd>
              <Badge variant="light" color={result.warning ? 'orange' : 'green'} className="badge-text">
                {result.status}
              </Badge>{' '}
              <Text span size="sm">
                {meaning}
              </Text>
            </dd>
          </div>
          <div className="field-list__row">
            <dt>Channel</dt>
            <dd>{channelLabel(result.channel)}</dd>
          </div>
          {scheduledFor !== null && (
            <div className="field-list__row">
              <dt>Goes out</dt>
              <dd data-testid="scheduled-for">
                {describeSendTime(scheduledFor, Date.now(), localZone())}: it was asked for outside the
                business’s sending hours, so it is held and sent when they open.
              </dd>
            </div>
          )}
          <div className="field-list__row">
            <dt>Request ID</dt>
            <dd>
              <code data-testid="request-id">{result.requestId}</code>
            </dd>
          </div>
        </dl>
        {isLink && (
          <Text size="sm" c="dimmed">
            No message was sent: show the QR code or share the link yourself. Nothing is a review until the
            customer leaves one.
          </Text>
        )}
        {!isLink && (
          <Text size="sm" c="dimmed">
            “Sent” is not “delivered”, and not a review: the customer still has to open the link and leave
            one. Completed requests show in Analytics; the review itself in Reviews.
          </Text>
        )}
        <div>
          <Group gap="xs" align="flex-end" wrap="nowrap" className="link-row">
            <TextInput
              label="Review link"
              value={result.reviewLink}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              className="link-row__input"
              data-testid="review-link"
            />
            <CopyButton value={result.reviewLink}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'light' : 'default'}
                  color={copied ? 'green' : undefined}
                  onClick={copy}
                >
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Anchor href={result.reviewLink} target="_blank" rel="noopener noreferrer" size="sm">
            Open the review page
          </Anchor>
        </div>
        {isLink && (
          <figure className="qr print-area" data-testid="qr-code">
            <QRCodeSVG
              value={result.reviewLink}
              size={200}
              marginSize={2}
              title="QR code of the review link"
            />
            <figcaption>
              <Text size="sm">Show this code to the customer, or print it.</Text>
            </figcaption>
            <Button variant="default" size="xs" onClick={() => window.print()} className="no-print">
              Print QR code
            </Button>
          </figure>
        )}
        <Group gap="sm">
          <Button onClick={onAnother}>Send another request</Button>
          <Button component={Link} to={requestsHref(contact)} variant="default">
            Recent requests
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
