import { AppError } from '@review-desk/server/errors';
import type { RoutedLocation } from '../locations/directory.ts';
import { createUpstreamHeaders } from './headers.ts';
import { PROXY_MESSAGES } from './messages.ts';

// One call to the location's upstream for the owners' extensions (settings, the website widget):
// the location's key, the request id, and for a write the Origin rule's headers; the answer read
// whole. A timeout or an unreachable upstream is the proxy's own refusal.

export type Exchange = {
  status: number;
  contentType: string | undefined;
  retryAfter: string | null;
  body: Buffer;
};
export type ExchangeMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

export async function exchange(
  location: RoutedLocation,
  method: ExchangeMethod,
  path: string,
  requestId: string,
  body?: Buffer,
): Promise<Exchange> {
  const base = location.upstream.url.href.replace(/\/+$/, '');
  const headers = createUpstreamHeaders(location.upstream)(
    method === 'GET'
      ? { method: 'GET', requestId }
      : // A write's headers are a POST's: the Origin rule, JSON and the length.
        { method: 'POST', requestId, contentLength: body?.length ?? 0 },
  );
  delete headers.host;
  delete headers['content-length'];
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: headers as Record<string, string>,
      ...(body ? { body: new Uint8Array(body) } : {}),
      redirect: 'manual',
      signal: AbortSignal.timeout(location.upstream.timeoutMs),
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? undefined,
      retryAfter: response.headers.get('retry-after'),
      body: Buffer.from(await response.arrayBuffer()),
    };
  } catch (error) {
    throw (error as Error).name === 'TimeoutError'
      ? new AppError('upstream_timeout', PROXY_MESSAGES.timeout)
      : new AppError('upstream_unreachable', PROXY_MESSAGES.unreachable);
  }
}
