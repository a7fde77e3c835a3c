import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir, makePrivate } from './files.ts';
import { StartupError } from './startup-error.ts';

// Secrets at rest (the BFF's location keys, the service's Google tokens): AES-256-GCM with a
// 32-byte key that lives outside the database (an environment variable, or a file), so a copy of
// the database alone holds nothing usable. Each sealed value binds its context (the row it
// belongs to) as associated data: a sealed value copied onto another row does not open.

const VERSION = 'v1';
const IV_BYTES = 12;

export type SecretBox = {
  seal(plain: string, context: string): string;
  /** Throws when the value was sealed with another key or for another context. */
  open(sealed: string, context: string): string;
};

export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  return {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || iv === undefined || tag === undefined || body === undefined)
        throw new Error('not a sealed value of this version');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      try {
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new Error('the sealed value does not open with this secrets key (another key, or altered)');
      }
    },
  };
}

/** 32 bytes written as 64 hex digits or as base64 / base64url; null when it is neither. */
export function parseSecretsKey(text: string): Uint8Array | null {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(
      value.replace(/=$/, ''),
      value.includes('-') || value.includes('_') ? 'base64url' : 'base64',
    );
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

export type SecretsKeySource = { key: string | undefined; file: string };

/**
 * The key from its variable (`variable`, e.g. SECRETS_KEY), else from its file (`variable`_FILE).
 * `create`: a missing file is made with a new random key (readable by this user only) — the
 * zero-setup default; without it, null.
 */
export function loadSecretsKey(
  source: SecretsKeySource,
  options: { create: boolean; variable: string },
): Uint8Array | null {
  const variable = options.variable;
  const fileVariable = `${variable}_FILE`;
  if (source.key !== undefined) {
    const key = parseSecretsKey(source.key);
    if (!key)
      throw new StartupError(`${variable}: must be 32 bytes as 64 hex digits or base64`, { variable });
    return key;
  }
  if (!existsSync(source.file)) {
    if (!options.create) return null;
    ensurePrivateDir(path.dirname(source.file), fileVariable);
    try {
      writeFileSync(source.file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  makePrivate(source.file);
  const key = parseSecretsKey(readFileSync(source.file, 'utf8'));
  if (!key)
    throw new StartupError(
      `${fileVariable}: ${source.file} does not hold 32 bytes as 64 hex digits or base64`,
      {
        variable: fileVariable,
      },
    );
  return key;
}

/** A box that refuses with `message`: for commands that touch no key, or a missing secrets key. */
export function refusingBox(message: string): SecretBox {
  const refuse = (): never => {
    throw new Error(message);
  };
  return { seal: refuse, open: refuse };
}
