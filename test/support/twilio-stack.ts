import { afterAll, beforeAll } from 'vitest';
import { type FakeTwilio, startFakeTwilio, twilioSettings } from './fake-twilio.ts';
import { type RunningApp, startApp } from './processes.ts';
import { type SystemApi, startSystemApi } from './stack.ts';

export type TwilioStack = {
  fake: FakeTwilio;
  api: SystemApi;
  key: string;
  /** Another API process on the same database and settings, killed after the tests. */
  another(): Promise<RunningApp>;
};

/**
 * The settings of an API texting through the stand-in Twilio `fake` (from `from`), with its clock
 * on dev hooks, no outbox and no frequency cap (a phone may be texted again), then `env`.
 */
export function textingApiEnv(
  fake: FakeTwilio,
  from: string,
  env: Record<string, string>,
): Record<string, string> {
  return { DEV_OUTBOX: '0', DEV_CLOCK: '1', FREQUENCY_CAP_DAYS: '0', ...env, ...twilioSettings(fake, from) };
}

/**
 * The API as a real process texting through the stand-in Twilio (textingApiEnv), for the tests of
 * one file: started before them with a key (the fields are set then); stopped after them, with
 * the other processes started through `another` killed.
 */
export function useApiOnFakeTwilio(from: string, env: Record<string, string>): TwilioStack {
  const others: RunningApp[] = [];
  const stack = {
    async another() {
      const app = await startApp('api', { env: stack.api.env });
      others.push(app);
      return app;
    },
  } as TwilioStack;
  beforeAll(async () => {
    stack.fake = await startFakeTwilio({ receiptDelayMs: 5 });
    stack.api = await startSystemApi(textingApiEnv(stack.fake, from, env));
    stack.key = await stack.api.createKey();
  });
  afterAll(async () => {
    for (const other of others) await other.stop('SIGKILL');
    await stack.api?.cleanup();
    await stack.fake?.close();
  });
  return stack;
}
