import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import { Alert, Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { fieldErrors } from '@review-desk/shared/envelope';
import { type MessageTemplates, SAMPLE_CUSTOMER_NAME } from '@review-desk/shared/settings';
import { bffSettingsTestBodySchema, TEST_SENDS_PER_HOUR } from '@review-desk/shared/settings-test';
import { useState } from 'react';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { PhoneInput } from '../../../components/phone-input.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { useSession } from '../../../lib/session.ts';
import { useSendTest } from '../api/send-test.ts';

// "Send me a test": the words in the editor right now — saved or not, what the preview shows —
// to the owner's own email (the signed-in address) or a phone they type. Checked with the shared
// schema before it leaves; the answer is said plainly: handed to the carrier is not delivered.

const TEMPLATE_FIELDS = ['smsTemplate', 'emailSubject', 'emailTemplate'] as const;

export function SendTest({ words }: { words: MessageTemplates }) {
  const { smsTemplate, emailSubject, emailTemplate } = words;
  const templates = { smsTemplate, emailSubject, emailTemplate };
  const me = useSession();
  const test = useSendTest();
  const [channel, setChannel] = useState<'email' | 'sms'>('email');
  const [phone, setPhone] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);

  const send = () => {
    const body = channel === 'sms' ? { channel, phone, templates } : { channel, templates };
    // The phone is checked here with the BFF's own schema; the words are checked by the service.
    const parsed = bffSettingsTestBodySchema.safeParse(body);
    const refused = parsed.success ? undefined : fieldErrors(parsed.error).fields.phone;
    setPhoneError(refused ?? null);
    if (refused) return;
    test.mutate(body, {
      onError: (error) => {
        if (error instanceof ApiError && error.fields?.phone) setPhoneError(error.fields.phone);
      },
    });
  };

  const error = test.error;
  const templateProblems =
    error instanceof ApiError && error.fields
      ? // Each message names its field as the page labels it.
        TEMPLATE_FIELDS.flatMap((f) => error.fields?.[f] ?? [])
      : [];
  const where = channel === 'sms' ? 'your phone' : me.user.email;

  return (
    <Paper withBorder p="md" data-testid="send-test">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Send me a test
        </Title>
        <Text size="sm" c="dimmed">
          The words above as they are now, saved or not, written for “{SAMPLE_CUSTOMER_NAME}” with a sample
          link, sent to you only. It is not a review request: it uses none of the month’s allowance and no
          reminder follows. At most {TEST_SENDS_PER_HOUR} tests an hour.
        </Text>
        <Radio.Group
          label="Send it as"
          value={channel}
          onChange={(value) => {
            setChannel(value === 'sms' ? 'sms' : 'email');
            test.reset();
          }}
        >
          <Group mt="xs">
            <Radio value="email" label={`Email to ${me.user.email}`} />
            <Radio value="sms" label="SMS to my phone" />
          </Group>
        </Radio.Group>
        {channel === 'sms' && (
          <PhoneInput
            label="Your phone"
            description="With the country code, e.g. +1 415 555 2671."
            value={phone}
            onValue={setPhone}
            error={phoneError}
          />
        )}
        <Group>
          <Button variant="light" onClick={send} loading={test.isPending}>
            Send me a test
          </Button>
        </Group>
        {test.data && (
          <Alert
            color={test.data.status === 'sent' ? 'green' : 'yellow'}
            title={test.data.status === 'sent' ? 'Test sent' : 'Test may have been sent'}
            data-testid="send-test-result"
          >
            {test.data.status === 'sent'
              ? `Handed to the carrier for ${test.data.to}: it should arrive in a moment (this is not a delivery receipt).`
              : `The carrier did not answer in time: it may or may not reach ${test.data.to}. ${test.data.error ?? ''}`}{' '}
            {test.data.remaining} more test{test.data.remaining === 1 ? '' : 's'} this hour.
          </Alert>
        )}
        {templateProblems.length > 0 && (
          <Alert
            color="red"
            title="Fix the words above first: nothing was sent"
            data-testid="send-test-result"
          >
            {templateProblems.map((p) => (
              <div key={p}>{p}</div>
            ))}
          </Alert>
        )}
        {error && !phoneError && templateProblems.length === 0 && (
          <Stack gap={4} data-testid="send-test-result">
            <Text size="sm" fw={600}>
              The test to {where} was not sent.
            </Text>
            <ErrorState error={error} />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
