import { AppError } from '@review-desk/server/errors';
import type { GoogleConnectBody } from '@review-desk/shared';
import type { ConnectionRow } from './connections.ts';
import type { GoogleService } from './service.ts';
import type { GoogleSync } from './sync.ts';

// Connecting a business's Google location (from the owners' Settings through the API, or the CLI):
// the refresh token is tried at once at Google's token endpoint — one Google refuses is refused
// here, with Google's words, and nothing is stored — then sealed and stored, and the location's
// first sync is due now. Google out of reach stores it anyway: the sync tries again later.

export async function connectGoogle(
  google: GoogleService,
  sync: GoogleSync,
  businessId: number,
  body: GoogleConnectBody,
  now: number,
): Promise<ConnectionRow> {
  if (!google.configured) throw new AppError('google_not_configured');
  const tried = await google.client.token(body.refreshToken, now);
  if (tried.kind === 'refused') {
    const message = `Google refused this refresh token: ${tried.message}`;
    throw new AppError('validation_failed', message, { fields: { refreshToken: message } });
  }
  const row = await google.connections.connect(businessId, body, body.refreshToken, now);
  if (tried.kind === 'ok')
    await google.connections.saveAccess(row, tried.value.token, tried.value.expiresAt, now);
  await sync.schedule(businessId, row.generation, now);
  return row;
}
