import { passwordSchema } from '@review-desk/shared/bff';
import { describe, expect, it } from 'vitest';
import { GENERATED_PASSWORD_LENGTH, generatePassword, roleOptions } from './model.ts';

describe('generatePassword', () => {
  it('makes a password the shared rule accepts, from unambiguous characters', () => {
    const password = generatePassword();
    expect(password).toHaveLength(GENERATED_PASSWORD_LENGTH);
    expect(password).toMatch(/^[A-HJ-NP-Za-km-z2-9]+$/);
    expect(passwordSchema.safeParse(password).success).toBe(true);
    expect(generatePassword()).not.toBe(password);
  });

  it('draws again on bytes that would favour the first characters (no modulo bias)', () => {
    // 57 characters: 228 = 4 × 57 is the largest multiple up to 256; 228–255 are drawn again.
    const draws = [new Uint8Array(20).fill(255), new Uint8Array(20).fill(228), new Uint8Array(20).fill(1)];
    const password = generatePassword((n) => {
      const next = draws.shift()!;
      expect(next).toHaveLength(n);
      return next;
    });
    expect(password).toBe('B'.repeat(20));
    expect(draws).toHaveLength(0);
  });
});

describe('roleOptions', () => {
  it('names every role with what it lets the user do', () => {
    expect(roleOptions().map((o) => o.label)).toEqual([
      'Owner: Everything, including managing users',
      'Manager: Reviews, analytics, sending requests',
      'Staff: Sending requests and reading reviews',
    ]);
  });
});
