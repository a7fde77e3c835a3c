import { randomBytes, randomUUID } from 'node:crypto';
import { reviewDetailSchema, reviewListSchema, successEnvelopeSchema } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGoogle, googleSettings, startFakeGoogle } from './support/fake-google/server.ts';
import { request } from './support/http.ts';
import { type SystemApi, startSystemApi, waitFor } from './support/stack.ts';

// At most once across a crash: the service is killed (SIGKILL) while Google holds its reply call
// unanswered. Started again, it says the reply is `unknown` — never `responded` on its side only,
// never posted again by itself; the same Idempotency-Key is refused as unknown, and only a retry
// the user chooses (a new key) posts once more. The stand-in counts every post it received.

const ACCOUNT = '5550001112223334445';
const LOCATION = '99887766';

describe('a reply post cut by SIGKILL', () => {
  let google: FakeGoogle;
  let api: SystemApi;
  let key: string;

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(api.url, path, {
      method,
      headers: {
        'x-api-key': key,
        origin: api.url,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs: 30_000,
    });
  const detail = async (id: string) =>
    successEnvelopeSchema(reviewDetailSchema).parse((await call('GET', `/api/v1/reviews/${id}`)).json).data;

  beforeAll(async () => {
    google = await startFakeGoogle();
    google.addReviews(ACCOUNT, LOCATION, [{ rating: 1, comment: 'Never again.', displayName: 'Crash Test' }]);
    api = await startSystemApi({
      ...googleSettings(google),
      // Long enough that the kill comes while the call waits for Google.
      GOOGLE_TIMEOUT_MS: '20000',
      SECRETS_KEY: randomBytes(32).toString('hex'),
    });
    key = await api.createKey('reviews:read,reviews:reply,settings:read,settings:write');
    const refreshToken = google.issueRefreshToken([`${ACCOUNT}/${LOCATION}`]);
    const connected = await call('PUT', '/api/v1/integrations/google', {
      accountId: ACCOUNT,
      locationId: LOCATION,
      refreshToken,
    });
    expect(connected.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await api?.cleanup();
    await google?.close();
  });

  it('never posts twice: unknown after the restart, the same key refused, a new one posted once', async () => {
    let id = '';
    await waitFor(
      async () => {
        const list = reviewListSchema.parse((await call('GET', '/api/v1/reviews?platform=google')).json.data);
        id = String(list.reviews[0]?.id ?? '');
        return id !== '';
      },
      30_000,
      'the first Google sync',
    );
    google.fail('reply', { kind: 'hang' });
    const idem = randomUUID();
    const inFlight = call(
      'POST',
      `/api/v1/reviews/${id}/reply`,
      { text: 'Sorry, truly.' },
      { 'idempotency-key': idem },
    );
    inFlight.catch(() => {}); // cut by the kill
    await waitFor(() => google.count('reply') === 1, 20_000, 'the post reaching Google');
    await api.stop('SIGKILL');
    await api.restart();

    const after = await detail(id);
    expect(after.response_status).toBe('pending');
    expect(after.reply).toMatchObject({ state: 'unknown', to: 'google' });
    const same = await call(
      'POST',
      `/api/v1/reviews/${id}/reply`,
      { text: 'Sorry, truly.' },
      { 'idempotency-key': idem },
    );
    expect(same.status).toBe(409);
    expect(same.json.code).toBe('outcome_unknown');
    expect(google.count('reply')).toBe(1);

    // The user chooses to try again: a new intent, posted once.
    const retried = await call(
      'POST',
      `/api/v1/reviews/${id}/reply`,
      { text: 'Sorry, truly.', version: after.version },
      { 'idempotency-key': randomUUID() },
    );
    expect(retried.status).toBe(200);
    expect(retried.json.data.reply.state).toBe('posted');
    expect(google.count('reply')).toBe(2);
  });
});
