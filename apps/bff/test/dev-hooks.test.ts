import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveDevClock } from '../../../test/support/dev-clock.ts';
import { type FakeUpstream, startFakeUpstream } from '../../../test/support/fault-upstream.ts';
import { startApp, tempDir } from '../../../test/support/processes.ts';
import { bffTestEnv, newApiKey, type SystemApi, startSystemApi } from '../../../test/support/stack.ts';

// BFF_DEV_HOOKS=1 lets anyone, signed in or not, move the clock list sends, alerts and digests
// wait on. It goes only with development services: beside a mail server or an upstream that is
// not a development one (its dev clock and dev outbox do not answer), the BFF refuses to start in
// one plain line naming the variable, whatever NODE_ENV says.

let real: FakeUpstream;
let development: SystemApi;
const temp = tempDir('bff-dev-hooks-');

beforeAll(async () => {
  real = await startFakeUpstream();
  development = await startSystemApi();
}, 60_000);

afterAll(async () => {
  await real?.close();
  await development?.cleanup();
  temp.cleanup();
});

/** The plain lines of a start that cannot happen (the others are its JSON log lines). */
async function refusal(env: Record<string, string>): Promise<string[]> {
  const error = (await startApp('bff', { env }).catch((e: Error) => e)) as Error;
  expect(error).toBeInstanceOf(Error);
  expect(error.message).not.toMatch(/\n\s+at /);
  return error.message
    .split('\n')
    .slice(1)
    .filter((line) => !line.startsWith('{'));
}

describe('the BFF’s dev hooks', () => {
  it('refuse to start beside an upstream that is not a development service, whatever NODE_ENV says', async () => {
    for (const nodeEnv of [{}, { NODE_ENV: 'development' }] as Record<string, string>[]) {
      const lines = await refusal(
        bffTestEnv(real.url, newApiKey(), temp.dir, { BFF_DEV_HOOKS: '1', ...nodeEnv }),
      );
      expect(lines).toEqual([
        `A location cannot be served: main's upstream ${new URL(real.url).origin} is not a development service (its dev clock and dev outbox do not answer), and BFF_DEV_HOOKS=1 lets anyone move the clock.`,
      ]);
    }
  });

  it('refuse to start beside a mail server', async () => {
    const lines = await refusal(
      bffTestEnv(development.url, newApiKey(), temp.dir, {
        BFF_DEV_HOOKS: '1',
        BFF_SMTP_URL: 'smtp://127.0.0.1:2525',
      }),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: BFF_DEV_HOOKS must be off with BFF_SMTP_URL/);
  });

  it('start beside a development service, and the clock moves', async () => {
    const app = await startApp('bff', {
      env: bffTestEnv(development.url, newApiKey(), tempDir('bff-dev-hooks-ok-').dir, { BFF_DEV_HOOKS: '1' }),
    });
    try {
      const at = Date.parse('2031-02-03T04:05:06Z');
      await moveDevClock(app.url, { set: at });
      const clock = (await (await fetch(`${app.url}/dev/clock`)).json()) as { data: { now: number } };
      expect(clock.data.now).toBeGreaterThanOrEqual(at);
    } finally {
      await app.stop();
    }
  });
});
