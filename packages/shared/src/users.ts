import { roleSchema } from './roles.ts';
import { z } from './zod.ts';

// The people who sign in to the dashboard: signing in, the users an owner manages, passwords.

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

export const loginBodySchema = /* @__PURE__ */ z.strictObject({
  email: /* @__PURE__ */ z
    .string({ error: 'Email is required' })
    .check(z.trim(), z.minLength(1, { error: 'Email is required' }), z.maxLength(320), z.toLowerCase()),
  password: /* @__PURE__ */ z
    .string({ error: 'Password is required' })
    .check(z.minLength(1, { error: 'Password is required' }), z.maxLength(PASSWORD_MAX)),
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const userSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: z.string(),
  lastLoginAt: z.nullable(z.string()),
});
export type User = z.infer<typeof userSchema>;

/** The password rule, its messages naming the field as its form labels it. */
const passwordRule = (label: string) =>
  /* @__PURE__ */ z
    .string({ error: `${label} is required` })
    .check(
      z.minLength(PASSWORD_MIN, { error: `${label} must be at least ${PASSWORD_MIN} characters` }),
      z.maxLength(PASSWORD_MAX, { error: `${label} must be at most ${PASSWORD_MAX} characters` }),
    );
const passwordSchema = /* @__PURE__ */ passwordRule('Password');

/**
 * POST /auth/password: a user changes their own password, the current one required (a session
 * left open on another computer is not enough to change it).
 */
export const changeOwnPasswordSchema = /* @__PURE__ */ z
  .strictObject({
    currentPassword: /* @__PURE__ */ z
      .string({ error: 'Current password is required' })
      .check(
        z.minLength(1, { error: 'Current password is required' }),
        z.maxLength(PASSWORD_MAX, { error: `Current password must be at most ${PASSWORD_MAX} characters` }),
      ),
    newPassword: passwordRule('New password'),
  })
  .check(
    z.refine((body) => body.currentPassword !== body.newPassword, {
      error: 'New password must differ from the current one',
      path: ['newPassword'],
    }),
  );
export type ChangeOwnPassword = z.input<typeof changeOwnPasswordSchema>;

export const createUserSchema = /* @__PURE__ */ z.strictObject({
  email: /* @__PURE__ */ z
    .email({ error: 'email must be a valid email address' })
    .check(z.maxLength(320), z.toLowerCase()),
  role: roleSchema,
  password: passwordSchema,
});
export const updateUserSchema = /* @__PURE__ */ z
  .strictObject({ role: z.optional(roleSchema), password: z.optional(passwordSchema) })
  .check(
    z.refine((v) => v.role !== undefined || v.password !== undefined, {
      error: 'Nothing to change: choose a role or a password.',
    }),
  );
export { passwordSchema };
