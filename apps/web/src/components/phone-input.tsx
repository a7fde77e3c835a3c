import { TextInput, type TextInputProps } from '@mantine/core';

/**
 * A text input for a phone number: the phone keypad on touch screens, the browser's saved number
 * offered; `onValue` receives the text as typed.
 */
export function PhoneInput({
  onValue,
  ...props
}: Omit<TextInputProps, 'onChange'> & { onValue: (text: string) => void }) {
  return (
    <TextInput
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      onChange={(event) => onValue(event.currentTarget.value)}
      {...props}
    />
  );
}
