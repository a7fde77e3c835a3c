import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, loadSecretsKey, parseSecretsKey } from './secrets.ts';

describe('secret box', () => {
  it('seals with a fresh nonce each time and opens only with the same key and context', () => {
    const box = createSecretBox(randomBytes(32));
    const a = box.seal('rk_live_x', 'ctx');
    expect(a).not.toBe(box.seal('rk_live_x', 'ctx'));
    expect(a).not.toContain('rk_live_x');
    expect(box.open(a, 'ctx')).toBe('rk_live_x');
    expect(() => box.open(a, 'other')).toThrow(/does not open/);
    expect(() => createSecretBox(randomBytes(32)).open(a, 'ctx')).toThrow(/does not open/);
    const [v, iv, tag, body] = a.split('.');
    const flipped = `${v}.${iv}.${tag}.${(body as string).startsWith('A') ? 'B' : 'A'}${(body as string).slice(1)}`;
    expect(() => box.open(flipped, 'ctx')).toThrow(/does not open/);
  });
});

describe('secrets key', () => {
  it('reads 32 bytes as hex or base64 and refuses anything else', () => {
    const bytes = randomBytes(32);
    expect(parseSecretsKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseSecretsKey(bytes.toString('base64'))).toEqual(bytes);
    expect(parseSecretsKey(bytes.toString('base64url'))).toEqual(bytes);
    expect(parseSecretsKey('short')).toBeNull();
    expect(parseSecretsKey(randomBytes(16).toString('hex'))).toBeNull();
  });

  it('prefers BFF_SECRETS_KEY; otherwise makes the file once, private, and reads it after', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rd-secrets-'));
    const file = path.join(dir, 'private', 'secrets.key');
    expect(loadSecretsKey({ key: undefined, file }, { create: false })).toBeNull();
    const made = loadSecretsKey({ key: undefined, file }, { create: true });
    expect(made).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretsKey({ key: undefined, file }, { create: true })).toEqual(made);
    const env = randomBytes(32);
    expect(loadSecretsKey({ key: env.toString('hex'), file }, { create: true })).toEqual(env);
    expect(() => loadSecretsKey({ key: 'nope', file }, { create: true })).toThrow(/BFF_SECRETS_KEY/);
    writeFileSync(file, 'garbage\n');
    expect(() => loadSecretsKey({ key: undefined, file }, { create: false })).toThrow(/BFF_SECRETS_KEY_FILE/);
    expect(readFileSync(file, 'utf8')).toBe('garbage\n');
  });
});
