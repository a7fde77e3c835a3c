import { TextInput, type TextInputProps } from '@mantine/core';

/** A text input for a phone number: the phone keypad on touch screens, the browser's saved number offered. */
export function PhoneInput(props: TextInputProps) {
  return <TextInput type="tel" inputMode="tel" autoComplete="tel" {...props} />;
}
