import '../../../components/field-list.css';

import {
  Alert,
  Anchor,
  Button,
  CopyButton,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { SEND_OUTCOME_MEANINGS } from '@review-desk/shared/bff';
import { describeSendTime } from '@review-desk/shared/quiet-hours';
import {
  LINK_CREATED,
  SEND_STATUS_MEANINGS,
  SEND_STATUS_SCHEDULED,
  SEND_STATUS_SENT,
  type SendResult,
} from '@review-desk/shared/send';
import { QRCodeSVG } from 'qrcode.react';

import { StateBadge, type StateTone } from '../../../components/state-badge.tsx';

import { requestsHref } from '../../../config/paths.ts';
import { Link } from '../../../lib/router.tsx';
import { channelLabel } from '../channel-labels.ts';
import { localZone } from './leg-state.tsx';

/** The one state a send's answer puts the request in, in words, with its definition. */
function stateOf(
  result: SendResult,
  scheduledFor: number | null,
): { label: string; meaning: string; tone: StateTone } {
  if (result.channel === 'link') return { ...LINK_CREATED, tone: 'gray' };
  if (result.warning)
    return { label: 'Accepted, with a problem', meaning: SEND_OUTCOME_MEANINGS.warning, tone: 'orange' };
  if (scheduledFor !== null)
    return {
      label: `Scheduled for ${describeSendTime(scheduledFor, Date.now(), localZone())}`,
      meaning: SEND_STATUS_MEANINGS.scheduled ?? '',
      tone: 'grape',
    };
  if (result.status === SEND_STATUS_SENT)
    return { label: 'Accepted for delivery', meaning: SEND_STATUS_MEANINGS.sent ?? '', tone: 'blue' };
  return {
    label: result.status,
    meaning:
      SEND_STATUS_MEANINGS[result.status] ??
      'This is the status the service reported; its exact meaning is not documented. It is not proof of delivery or of a review.',
    tone: 'gray',
  };
}

/**
 * The honest result of a send (docs/api.md, "The send's answer"), as one state: accepted for
 * delivery (not delivered, not a review), scheduled for a time, a link created (nothing sent);
 * the definition a tap away. A warning (one leg of "both" failed) is the first thing read.
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
  const isLink = result.channel === 'link';
  const scheduledFor =
    result.status === SEND_STATUS_SCHEDULED && result.scheduledFor ? Date.parse(result.scheduledFor) : null;
  const state = stateOf(result, scheduledFor);
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
            <dt>State</dt>
            <dd>
              <StateBadge {...state} data-testid="send-state" />
            </dd>
          </div>
          <div className="field-list__row">
            <dt>Channel</dt>
            <dd>{channelLabel(result.channel)}</dd>
          </div>
          <div className="field-list__row">
            <dt>Request ID</dt>
            <dd>
              <code data-testid="request-id">{result.requestId}</code>
            </dd>
          </div>
        </dl>
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
