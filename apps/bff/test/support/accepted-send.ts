import { randomUUID } from 'node:crypto';
import type { DeliveryResult } from '../../src/proxy/send.ts';
import { settleSend } from '../../src/proxy/send-outcome.ts';

/** What the send path answers for a send the upstream accepted (201, sent): for list-send tests. */
export function acceptedSend(): DeliveryResult {
  const body = {
    success: true,
    data: { requestId: randomUUID(), status: 'sent', channel: 'email', reviewLink: 'x' },
  };
  return {
    kind: 'settled',
    entry: randomUUID(),
    settled: settleSend(
      {
        kind: 'reply',
        status: 201,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(body)),
      },
      'rk_test_key_not_in_any_body',
    ),
  };
}
