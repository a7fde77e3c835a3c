import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signing (docs/api.md, "Webhooks"): a secret is `whsec_` + base64 of 32 random
// bytes, and its HMAC key is those bytes; a signature is `v1,` + base64 of HMAC-SHA256 over
// `{webhook-id}.{webhook-timestamp}.{body}`. During a rotation each secret signs, and the header
// holds both signatures, space-separated: a receiver with either secret verifies the message.

const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one attempt, signed with every secret in force. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  at: number,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(at / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}

export function eventId(): string {
  return `evt_${randomBytes(16).toString('base64url')}`;
}
