import './send.css';
import '@mantine/core/styles/Combobox.layer.css';
import { NativeSelect, Text } from '@mantine/core';
import { SEND_FIELD_LABELS } from '@review-desk/shared/send';
import type { CountryCode } from 'libphonenumber-js/max';
import { useMemo } from 'react';
import { PhoneInput } from '../../../components/phone-input.tsx';
import { countryOptions, phonePreview } from '../send-form-model.ts';

/**
 * Country choice plus the number as people say it; normalised to E.164 with libphonenumber's
 * full metadata. A number typed with + keeps its own country code.
 */
export function PhoneField({
  country,
  number,
  error,
  onCountry,
  onNumber,
  onBlur,
}: {
  country: CountryCode;
  number: string;
  error: string | undefined;
  onCountry: (country: CountryCode) => void;
  onNumber: (number: string) => void;
  onBlur: () => void;
}) {
  const options = useMemo(() => countryOptions(), []);
  const preview = phonePreview(country, number);
  const ownCode = number.trim().startsWith('+');
  return (
    <fieldset className="phone-field">
      <legend className="phone-field__legend">Customer phone</legend>
      <div className="phone-field__inputs">
        <NativeSelect
          label="Country"
          value={country}
          onChange={(event) => onCountry(event.currentTarget.value as CountryCode)}
          data={options}
          disabled={ownCode}
          className="phone-field__country"
          description={ownCode ? 'Taken from the number' : undefined}
        />
        <PhoneInput
          label={SEND_FIELD_LABELS.customerPhone}
          name="customerPhone"
          value={number}
          onValue={onNumber}
          onBlur={onBlur}
          error={error}
          className="phone-field__number"
          description="National format, or international with +"
        />
      </div>
      {preview && (
        <Text size="xs" c="dimmed" mt={4} data-testid="phone-preview">
          Will be sent to {preview.international}
          {preview.country && preview.country !== country ? ` (${preview.country})` : ''}
        </Text>
      )}
    </fieldset>
  );
}
