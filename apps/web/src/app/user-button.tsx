import { UnstyledButton, type UnstyledButtonProps } from '@mantine/core';
import type { ComponentPropsWithRef } from 'react';
import { useSession } from '../lib/session.ts';

/** The account button in the header: the user's initial, and the email on wide screens. */
export function UserButton(props: UnstyledButtonProps & ComponentPropsWithRef<'button'>) {
  const me = useSession();
  return (
    <UnstyledButton
      className="user-button"
      aria-label={`Account: ${me.user.email}`}
      aria-haspopup="menu"
      {...props}
    >
      <span className="user-avatar" aria-hidden="true">
        {me.user.email.slice(0, 1).toUpperCase()}
      </span>
      <span className="user-email">{me.user.email}</span>
    </UnstyledButton>
  );
}
