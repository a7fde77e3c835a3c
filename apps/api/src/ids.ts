import { createHash, randomBytes } from 'node:crypto';

// Identifiers and secrets. Link tokens and keys carry 256 random bits (the issue asks ≥ 128).

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function requestPublicId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}

export function keyId(): string {
  return `key_${randomBytes(6).toString('hex')}`;
}

/** Reviews are addressed by their row id: the list order's tie-break, stable and compact. */
export function reviewPublicId(id: number): string {
  return `rev_${id}`;
}

/** The row id of a review's public id; undefined when it is not one. */
export function reviewRowId(publicId: string): number | undefined {
  const match = /^rev_([1-9][0-9]{0,14})$/.exec(publicId);
  return match ? Number(match[1]) : undefined;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
