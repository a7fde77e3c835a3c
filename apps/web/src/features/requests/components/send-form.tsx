import { Button, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { CHANNEL_REQUIRES, type Channel, SEND_FIELD_LABELS } from '@review-desk/shared/send';
import type { CountryCode } from 'libphonenumber-js/max';
import type { ChangeEvent, FormEvent } from 'react';
import { CHANNEL_LABELS } from '../channel-labels.ts';
import type { SendField, SendFieldErrors, SendFormValues } from '../send-form-model.ts';
import { PhoneField } from './phone-field.tsx';

const CHANNEL_HINTS: Record<Channel, string> = {
  sms: 'A text message with the review link goes to the customer’s phone.',
  email: 'An email with the review link goes to the customer.',
  both: 'An SMS and an email go out; if one fails, the other may still arrive (you will see a warning).',
  link: 'Creates a shareable link (and QR code) to show or send yourself. No message is sent.',
};

export function SendForm({
  values,
  errors,
  pending,
  pendingLabel,
  onChange,
  onBlur,
  onSubmit,
}: {
  values: SendFormValues;
  errors: SendFieldErrors;
  pending: boolean;
  pendingLabel: string;
  onChange: (change: Partial<SendFormValues>) => void;
  onBlur: (field: SendField) => void;
  onSubmit: () => void;
}) {
  const needs = CHANNEL_REQUIRES[values.channel];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  /** A text input of the customer's, bound to its value, its check on leaving and its error. */
  const contactInput = (field: 'customerName' | 'customerEmail') => ({
    name: field,
    autoComplete: 'off',
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange({ [field]: event.currentTarget.value }),
    onBlur: () => onBlur(field),
    error: errors[field],
    disabled: pending,
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Send a review request" className="send-form">
      <Stack gap="md">
        <div>
          <Text component="label" id="channel-label" size="sm" fw={500} display="block" mb={4}>
            Channel
          </Text>
          <SegmentedControl
            aria-labelledby="channel-label"
            value={values.channel}
            onChange={(value) => onChange({ channel: value as Channel })}
            data={(Object.keys(CHANNEL_LABELS) as Channel[]).map((channel) => ({
              value: channel,
              label: CHANNEL_LABELS[channel],
            }))}
            fullWidth
            disabled={pending}
          />
          <Text size="xs" c="dimmed" mt={6}>
            {CHANNEL_HINTS[values.channel]}
          </Text>
          {errors.channel && (
            <Text size="xs" c="var(--mantine-color-error)" mt={4} role="alert">
              {errors.channel}
            </Text>
          )}
        </div>
        <TextInput
          label={SEND_FIELD_LABELS.customerName}
          description="Optional; used to greet the customer."
          {...contactInput('customerName')}
        />
        {needs.phone && (
          <PhoneField
            country={values.phoneCountry}
            number={values.phoneNumber}
            error={errors.customerPhone}
            onCountry={(phoneCountry: CountryCode) => onChange({ phoneCountry })}
            onNumber={(phoneNumber) => onChange({ phoneNumber })}
            onBlur={() => onBlur('customerPhone')}
          />
        )}
        {needs.email && (
          <TextInput
            label={SEND_FIELD_LABELS.customerEmail}
            type="email"
            {...contactInput('customerEmail')}
          />
        )}
        <div>
          <Button
            type="submit"
            loading={pending}
            disabled={pending}
            loaderProps={{ 'aria-label': pendingLabel }}
          >
            {values.channel === 'link' ? 'Create link' : 'Send request'}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
