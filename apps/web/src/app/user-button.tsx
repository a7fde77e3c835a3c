import type { ComponentPropsWithRef } from 'react';
import { useSession } from '../lib/session.ts';

/** The account button in the header: the user's initial, and the email on wide screens. */
export function UserButton({ className, ...props }: ComponentPropsWithRef<'button'>) {
  const me = useSession();
  // The menu target adds its own props, className included: merge, never replace.
  return (
    <button
      type="button"
      aria-label={`Account: ${me.user.email}`}
      aria-haspopup="menu"
      {...props}
      className={className ? `user-button ${className}` : 'user-button'}
    >
      <span className="user-avatar" aria-hidden="true">
        {me.user.email.slice(0, 1).toUpperCase()}
      </span>
      <span className="user-email">{me.user.email}</span>
    </button>
  );
}
