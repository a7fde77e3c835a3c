import type { IncomingMessage } from 'node:http';
import { AppError } from '@review-desk/server/errors';
import { JSON_BODY_LIMIT_BYTES, MESSAGES } from '@review-desk/shared';
import type { Gate } from './gate.ts';

// Request bodies. The gates judge what the headers say before a byte is read: a read carries no
// body; a JSON route takes JSON, uncompressed, within the limit. Reading then enforces the limit
// on what actually arrives (a chunked body declares no length) and parses; the routes validate
// the value with the shared schemas and forward or store only what they validated.

/** application/json or any application/…+json, with or without parameters. */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Whether a request carries a body (Content-Length > 0 or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

const WITH_BODY = new AppError('body_not_allowed');

/** Gate: a read carries no body (there is nothing to forward it to). */
export const noBody: Gate = (req) => (hasBody(req) ? WITH_BODY : null);

/** Gate: a JSON body — 415 for another type or a compressed one, 413 when it declares too many bytes. */
export function jsonBody(limit = JSON_BODY_LIMIT_BYTES): Gate {
  return (req) => {
    if (!isJsonContentType(req.headers['content-type'])) return new AppError('not_json');
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit)
      return new AppError('body_too_large', MESSAGES.bodyTooLarge(limit));
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity')
      return new AppError('encoding_unsupported');
    return null;
  };
}

function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new AppError('body_too_large', MESSAGES.bodyTooLarge(limit)));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (error) => {
      if (!failed) {
        failed = true;
        reject(error);
      }
    });
  });
}

/** The parsed JSON value of a body the `jsonBody` gate let through; 400 when it does not parse. */
export async function readJsonBody(req: IncomingMessage, limit = JSON_BODY_LIMIT_BYTES): Promise<unknown> {
  const raw = await readRawBody(req, limit);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('malformed_json');
  }
}
