import '@mantine/core/styles/Badge.layer.css';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { renderEmail, renderSms, SMS_SEGMENTS_MAX, type TemplateValues } from '@review-desk/shared/settings';
import { smsSegments } from '@review-desk/shared/sms-segments';

// The SMS and the email as the customer receives them: written by the renderer the service
// sends with, opt-out words included, and the SMS's segment count and encoding.

export function SmsPreview({ template, values }: { template: string; values: TemplateValues }) {
  const text = renderSms({ smsTemplate: template }, values);
  const info = smsSegments(text);
  const over = info.segments > SMS_SEGMENTS_MAX;
  const capacity = info.segments <= 1 ? info.perSegment : info.perSegment * info.segments;
  return (
    <Stack gap={6} data-testid="sms-preview">
      <Text size="sm" fw={600}>
        SMS as the customer sees it
      </Text>
      <Paper withBorder radius="lg" p="sm" className="sms-bubble">
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="sms-text">
          {text}
        </Text>
      </Paper>
      <Group gap="xs" aria-live="polite" data-testid="sms-count">
        <Badge color={over ? 'red' : 'gray'} variant="light">
          {info.segments} {info.segments === 1 ? 'segment' : 'segments'}
        </Badge>
        <Badge color={info.encoding === 'GSM-7' ? 'gray' : 'yellow'} variant="light">
          {info.encoding}
        </Badge>
        <Text size="xs" c="dimmed">
          {info.units} of {capacity} {info.encoding === 'GSM-7' ? 'characters' : 'UCS-2 units'}
        </Text>
      </Group>
      {info.encoding === 'UCS-2' && (
        <Text size="xs" c="dimmed">
          Sent as Unicode (70 characters per SMS, not 160) because of{' '}
          {info.unicodeCharacters
            .slice(0, 5)
            .map((c) => `“${c}”`)
            .join(' ')}
          .
        </Text>
      )}
      {over && (
        <Text size="xs" c="red">
          At most {SMS_SEGMENTS_MAX} segments: shorten the message.
        </Text>
      )}
    </Stack>
  );
}

export function EmailPreview({
  subject,
  template,
  values,
}: {
  subject: string;
  template: string;
  values: TemplateValues;
}) {
  const email = renderEmail({ emailSubject: subject, emailTemplate: template }, values);
  return (
    <Stack gap={6} data-testid="email-preview">
      <Text size="sm" fw={600}>
        Email as the customer sees it
      </Text>
      <Paper withBorder p="sm">
        <Text size="sm" fw={600} data-testid="email-subject">
          {email.subject}
        </Text>
        <Text
          size="sm"
          mt="xs"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          data-testid="email-body"
        >
          {email.body}
        </Text>
      </Paper>
    </Stack>
  );
}
