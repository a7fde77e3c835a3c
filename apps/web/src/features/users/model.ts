import { ROLE_PERMISSIONS, ROLES, type Role } from '@review-desk/shared/bff';
import { ApiError } from '../../lib/api-error.ts';
import { describeError } from '../../lib/describe-error.ts';

// The Users page's rules: what each role may do in words, a generated password, and a failed
// call said in one sentence.

const ROLE_HELP: Record<Role, string> = {
  owner: 'Everything, including managing users',
  manager: 'Reviews, analytics, sending requests',
  staff: 'Sending requests and reading reviews',
};

/** Whether a change of role lets the user do something they could not before (then it is confirmed). */
export function grantsMore(from: Role, to: Role): boolean {
  return ROLE_PERMISSIONS[to].some((permission) => !ROLE_PERMISSIONS[from].includes(permission));
}

/** What a role lets its user do, in words. */
export function roleHelp(role: Role): string {
  return ROLE_HELP[role];
}

/** The role choices of the add form, each with what it lets the user do. */
export function roleOptions(): { value: Role; label: string }[] {
  return ROLES.map((role) => ({
    value: role,
    label: `${role[0]!.toUpperCase()}${role.slice(1)}: ${ROLE_HELP[role]}`,
  }));
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'; // no 0/O, 1/l/I
export const GENERATED_PASSWORD_LENGTH = 20;

/**
 * A strong random password an owner can hand over (about 116 bits). Bytes at or above the
 * largest multiple of the alphabet's size are drawn again, so every character is equally likely.
 */
export function generatePassword(random = (n: number) => crypto.getRandomValues(new Uint8Array(n))): string {
  const limit = 256 - (256 % PASSWORD_ALPHABET.length);
  let password = '';
  while (password.length < GENERATED_PASSWORD_LENGTH) {
    for (const byte of random(GENERATED_PASSWORD_LENGTH)) {
      if (byte < limit && password.length < GENERATED_PASSWORD_LENGTH)
        password += PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length];
    }
  }
  return password;
}

/** A failed call in one line: the server's own message, else what went wrong and what to do. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  const described = describeError(error);
  return `${described.title}. ${described.action}`;
}
