import { Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';

/**
 * A generated password, shown once after it was set, to copy and hand over: the dashboard keeps
 * no copy, and the dialog says so.
 */
export function PasswordOnce({
  email,
  password,
  onDone,
}: {
  email: string;
  password: string;
  onDone: () => void;
}) {
  return (
    <Stack data-testid="password-once">
      <Text size="sm">
        Give {email} this password in a safe way: it is shown only now. They can change it after signing in
        (Account → Change password).
      </Text>
      <Group gap="xs" align="flex-end" wrap="nowrap" className="link-row">
        <TextInput
          label="Password"
          value={password}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          className="link-row__input"
        />
        <CopyButton value={password}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'light' : 'default'}
              color={copied ? 'green' : undefined}
              onClick={copy}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onDone} data-autofocus>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
