import { roleSchema } from './roles.ts';
import { z } from './zod.ts';

// The people who sign in to the dashboard: signing in, the users an owner manages, passwords.

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

export const loginBodySchema = /* @__PURE__ */ z.strictObject({
  email: /* @__PURE__ */ z
    .string({ error: 'email is required' })
    .check(z.trim(), z.minLength(1, { error: 'email is required' }), z.maxLength(320), z.toLowerCase()),
  password: /* @__PURE__ */ z
    .string({ error: 'password is required' })
    .check(z.minLength(1, { error: 'password is required' }), z.maxLength(PASSWORD_MAX)),
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

const passwordSchema = /* @__PURE__ */ z
  .string({ error: 'password is required' })
  .check(
    z.minLength(PASSWORD_MIN, { error: `password must be at least ${PASSWORD_MIN} characters` }),
    z.maxLength(PASSWORD_MAX, { error: `password must be at most ${PASSWORD_MAX} characters` }),
  );

export const createUserSchema = /* @__PURE__ */ z.strictObject({
  email: /* @__PURE__ */ z
    .email({ error: 'email must be a valid email address' })
    .check(z.maxLength(320), z.toLowerCase()),
  role: roleSchema,
  password: passwordSchema,
});
export const updateUserSchema = z
  .strictObject({ role: z.optional(roleSchema), password: z.optional(passwordSchema) })
  .check(
    z.refine((v) => v.role !== undefined || v.password !== undefined, {
      error: 'Nothing to change: give role or password.',
    }),
  );
export { passwordSchema };
