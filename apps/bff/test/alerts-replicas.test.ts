import path from 'node:path';
import { ALERT_PATHS } from '@review-desk/shared/alerts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeUpstream, faults, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { type SmtpCatcher, startSmtpCatcher } from '../../../test/support/smtp.ts';
import { type SystemApi, type SystemBff, startSystemBff, waitFor } from '../../../test/support/stack.ts';
import { EMAIL_ALERTS, leaveReview, startReviewedApi } from './support/alerts.ts';

// Two BFF processes on one database, both polling every second: the lease on each location's
// poll job lets one poll at a time, and a new low rating is emailed once, not once per process.

let smtp: SmtpCatcher;
let api: SystemApi;
let link: FakeUpstream;
let key: string;
const replicas: SystemBff[] = [];
let inFlight = 0;
let maxInFlight = 0;
let reads = 0;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  ({ api, key } = await startReviewedApi());
  link = await startFakeUpstream();
  const relay = faults.relay(api.url);
  link.behave((req, res, socket) => {
    if (!req.url.startsWith('/api/v1/reviews')) return relay(req, res, socket);
    reads++;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    // Slow enough that two pollers at once would overlap.
    setTimeout(() => relay(req, res, socket), 300);
  });
  const first = await startSystemBff(link.url, {
    UPSTREAM_API_KEY: key,
    ALERT_POLL_SECONDS: '1',
    BFF_SMTP_URL: smtp.url,
  });
  replicas.push(first);
  replicas.push(
    await startSystemBff(link.url, {
      ...first.env,
      BFF_DATABASE_PATH: first.databasePath,
      BFF_SECRETS_KEY_FILE: path.join(first.dir, 'bff-secrets.key'),
    }),
  );
}, 60_000);

afterAll(async () => {
  for (const bff of replicas) await bff.cleanup();
  await link?.close();
  await api?.cleanup();
  await smtp?.close();
});

const leaveOneStarReview = () =>
  leaveReview(
    api,
    key,
    { channel: 'link', customerName: 'Unhappy Customer' },
    { rating: 1, comment: 'Never again' },
  );

it('two processes never poll a location at once, and a new 1★ review is emailed once', async () => {
  const owner = await replicas[0]!.owner();
  const saved = await owner.request('PUT', ALERT_PATHS.preferences, {
    json: EMAIL_ALERTS,
  });
  expect(saved.status).toBe(200);
  await waitFor(() => reads >= 3, 20_000, 'three polls');
  await leaveOneStarReview();
  await smtp.waitFor(1, 20_000);
  const after = reads;
  await waitFor(() => reads >= after + 4, 20_000, 'four more polls');
  expect(smtp.messages).toHaveLength(1);
  expect(maxInFlight).toBe(1);
  // Both processes serve the same alert.
  for (const bff of replicas) {
    const session = await bff.owner();
    const list = await session.get(ALERT_PATHS.alerts);
    expect(list.json.data.unread).toBe(1);
  }
}, 60_000);
