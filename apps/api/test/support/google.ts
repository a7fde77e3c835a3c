import { randomBytes } from 'node:crypto';
import type { FakeClock } from '@review-desk/server/clock';
import { jobStore } from '@review-desk/server/jobs/store';
import { googleConnectionSchema, successEnvelopeSchema } from '@review-desk/shared';
import type { FakeGoogle } from '../../../../test/support/fake-google/server.ts';
import { type Config, testConfig } from '../../src/env.ts';
import { syncKey } from '../../src/reviews/google/sync.ts';
import { getJson, type TestApi, writeJson } from '../helpers.ts';

// The service against the Google stand-in: its settings, a business connected to a location of
// the stand-in, and the location's sync job run on the test's clock.

export const ACCOUNT = '1098765432101234567';
export const SYNC_MS = 900_000;

/** The service's Google settings for the stand-in (its timeouts short: a hang costs a test little). */
export function googleOverrides(fake: FakeGoogle, timeoutMs = 1_000): Partial<Config> {
  const defaults = testConfig().google;
  return {
    google: {
      ...defaults,
      apiBase: fake.url,
      tokenUrl: fake.tokenUrl,
      client: { id: fake.clientId, secret: fake.clientSecret },
      syncMs: SYNC_MS,
      timeoutMs,
      secrets: { key: randomBytes(32).toString('hex'), file: '/nonexistent/secrets-key' },
    },
  };
}

export function connectionOf(answer: { body: unknown }) {
  return successEnvelopeSchema(googleConnectionSchema).parse(answer.body).data.connection;
}

/** A location of the stand-in connected to the key's business through the API; its refresh token. */
export async function connect(
  api: TestApi,
  fake: FakeGoogle,
  key: string,
  location: string,
): Promise<string> {
  fake.reviewsOf(ACCOUNT, location);
  const refreshToken = fake.issueRefreshToken([`${ACCOUNT}/${location}`]);
  const answer = await writeJson(api, 'PUT', '/api/v1/integrations/google', key, {
    accountId: `accounts/${ACCOUNT}`,
    locationId: location,
    refreshToken,
  });
  if (answer.status !== 200) throw new Error(`connect: ${answer.status} ${JSON.stringify(answer.body)}`);
  return refreshToken;
}

export const readConnection = async (api: TestApi, key: string) =>
  connectionOf(await getJson(api, '/api/v1/integrations/google', key));

/** The business's sync job as the jobs table holds it. */
export async function syncJob(api: TestApi, businessId: number) {
  const row = (await api.ctx.google.connections.get(businessId))!;
  return jobStore(api.ctx.store.db).byKey(syncKey(businessId, row.generation));
}

/** Moves the clock to the sync job's next run and runs what is due. */
export async function runSync(api: TestApi, clock: FakeClock, businessId: number): Promise<void> {
  const job = await syncJob(api, businessId);
  if (job && job.runAt > clock.now()) clock.set(job.runAt);
  await api.ctx.jobs.drain();
}
