import type { IncomingMessage } from 'node:http';
import { AppError } from '@review-desk/server/errors';
import { JSON_BODY_LIMIT_BYTES, MESSAGES } from '@review-desk/shared';
import { isJsonContentType } from '../proxy/headers.ts';

// JSON bodies, read by hand rather than by a body parser: the send route must forward the exact
// bytes it received (and fingerprint what they mean), so the raw buffer is kept next to the value.

export type JsonBody = { raw: Buffer; value: unknown };

export function readRawBody(req: IncomingMessage, limit = JSON_BODY_LIMIT_BYTES): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    return Promise.reject(new AppError('body_too_large', MESSAGES.bodyTooLarge(limit)));
  }
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    req.resume();
    return Promise.reject(new AppError('encoding_unsupported'));
  }
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

/** A JSON body: 415 unless Content-Type is JSON, 400 when it does not parse. */
export async function readJsonBody(req: IncomingMessage, limit = JSON_BODY_LIMIT_BYTES): Promise<JsonBody> {
  if (!isJsonContentType(req.headers['content-type'])) {
    req.resume();
    throw new AppError('not_json');
  }
  const raw = await readRawBody(req, limit);
  try {
    return { raw, value: JSON.parse(raw.toString('utf8')) };
  } catch {
    throw new AppError('malformed_json');
  }
}
