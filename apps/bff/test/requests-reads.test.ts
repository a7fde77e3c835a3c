import { fail } from '@review-desk/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeUpstream, json } from '../../../test/support/fault-upstream.ts';
import { sentRequest } from '../../../test/support/request-record.ts';
import { type TestBff, useBffOnFakeUpstream } from './support/bff.ts';
import type { DashboardClient } from './support/client.ts';

// The extension's reads of sent requests through the allow-list: canonical queries, the id
// checked and re-encoded, every role that sees recent requests, and an upstream without the
// extension answering 404 — passed on as a 404, so the dashboard keeps its journal's view.

let upstream: FakeUpstream;
let bff: TestBff;
let owner: DashboardClient;

const RECORD = sentRequest('req_1', 'sms', [
  {
    channel: 'sms',
    provider: 'twilio',
    state: 'delivered',
    error: null,
    updatedAt: '2026-06-10T12:00:03.000Z',
  },
]);

useBffOnFakeUpstream((stack) => ({ upstream, bff, owner } = stack));
afterEach(() => upstream.reset());

describe('reads of sent requests', () => {
  it('forwards the list with a canonical query and one request by its id', async () => {
    upstream.behaveOn('/api/v1/requests', (_req, res) =>
      json(res, 200, { success: true, data: { page: 1, limit: 5, total: 1, requests: [RECORD] } }),
    );
    upstream.behaveOn('/api/v1/requests/req_1', (_req, res) =>
      json(res, 200, { success: true, data: RECORD }),
    );
    const list = await owner.get('/api/v1/requests?limit=05&channel=sms&status=sent');
    expect(list.status).toBe(200);
    expect(list.json.data.requests[0].legs[0].state).toBe('delivered');
    const one = await owner.get('/api/v1/requests/req_1');
    expect(one.status).toBe(200);
    expect(upstream.calls.map((c) => c.url)).toEqual([
      '/api/v1/requests?page=1&limit=5&status=sent&channel=sms',
      '/api/v1/requests/req_1',
    ]);
    // The key went upstream; the browser's cookie did not.
    expect(upstream.calls[1]?.headers['x-api-key']).toBe(bff.key);
    expect(upstream.calls[1]?.headers.cookie).toBeUndefined();
  });

  it('passes an upstream’s 404 on as a 404, readable or not', async () => {
    upstream.behaveOn('/api/v1/requests', (_req, res) => json(res, 404, fail('not_found')));
    const readable = await owner.get('/api/v1/requests');
    expect(readable.status).toBe(404);
    expect(readable.json).toMatchObject({ success: false, code: 'not_found' });
    upstream.behaveOn('/api/v1/requests', (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    });
    const page = await owner.get('/api/v1/requests');
    expect(page.status).toBe(404);
    expect(page.json).toMatchObject({ success: false, code: 'not_found' });
  });

  it('needs a signed-in user', async () => {
    const reply = await bff.client().get('/api/v1/requests');
    expect(reply.status).toBe(401);
    expect(upstream.calls).toHaveLength(0);
  });
});
