import { createTestDatabase, type TestDatabase } from '@review-desk/server/test-support/databases';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { behaviours, type FakeUpstream, startFakeUpstream } from '../../../../test/support/fault-upstream.ts';
import { createContactHasher } from '../journal/contact.ts';
import { createJournal } from '../journal/journal.ts';
import { createMetrics } from '../metrics.ts';
import { createReviewJournal } from '../replies/journal.ts';
import { ALL_BFF_MIGRATIONS } from '../store/database.ts';
import type { RoutedLocation } from './directory.ts';
import { createHandlerSet } from './handlers.ts';

// A location's forwarders are rebuilt when its key or upstream changes (a key rotation). The
// replaced send handler is kept only while a send it forwarded is in flight, so shutdown waits
// for it; then it is dropped. Rotations never pile handlers up.

let upstream: FakeUpstream;
let database: TestDatabase;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  database = await createTestDatabase('sqlite', { migrations: ALL_BFF_MIGRATIONS });
});

afterAll(async () => {
  await upstream?.close();
  await database?.dispose();
});

const location = (version: number): RoutedLocation => ({
  id: 'loc-1',
  slug: 'downtown',
  name: 'Downtown',
  version,
  upstream: {
    url: new URL(upstream.url),
    key: 'rd_live_k',
    authScheme: 'x-api-key',
    origin: upstream.url,
    timeoutMs: 5_000,
  },
});

it('drops replaced send handlers, keeping one only while a send it forwarded is in flight', async () => {
  const handlers = createHandlerSet({
    journal: createJournal(database.db, 'instance-1'),
    reviewJournal: createReviewJournal(database.db),
    hasher: createContactHasher('secret'),
    logger: pino({ level: 'silent' }),
    log: { enabled: false, write() {}, send() {} },
    metrics: createMetrics(),
  });
  for (let version = 1; version <= 1_000; version++) handlers.forLocation(location(version));
  expect(handlers.retiredCount()).toBe(0);

  // A send in flight on the handler a rotation replaces.
  let release = () => {};
  upstream.behaveOn('/api/v1/requests/send', (req, res, socket) => {
    release = () =>
      behaviours.status(200, { success: true, data: { requestId: 'r', status: 'sent' } })(req, res, socket);
  });
  const sending = handlers.forLocation(location(1_000)).send.deliver({
    user: { id: 'u1', email: 'a@example.com' },
    key: crypto.randomUUID(),
    send: { channel: 'sms', customerPhone: '+14155552671' },
    requestId: 'req-1',
  });
  // Poll the upstream stand-in until the send is in flight there.
  while (upstream.count('/api/v1/requests/send') === 0)
    await new Promise((resolve) => setTimeout(resolve, 10));
  handlers.forLocation(location(1_001));
  expect(handlers.retiredCount()).toBe(1);
  const drained = handlers.drain();
  release();
  await sending;
  await drained;
  expect(handlers.retiredCount()).toBe(0);
});
