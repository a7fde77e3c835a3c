import { afterAll, beforeAll } from 'vitest';
import { type FakeTwilio, startFakeTwilio, twilioSettings } from './fake-twilio.ts';
import type { RunningApp } from './processes.ts';
import { type SystemApi, startSystemApi } from './stack.ts';

export type TwilioStack = { fake: FakeTwilio; api: SystemApi; key: string };

/**
 * The API as a real process texting through the stand-in Twilio (from `from`), with its clock on
 * dev hooks, no outbox and no frequency cap (a phone may be texted again), for the tests of one
 * file: started before them with a key and handed to `ready`; stopped after them, with the extra
 * processes in `others` killed.
 */
export function useApiOnFakeTwilio(
  from: string,
  env: Record<string, string>,
  ready: (stack: TwilioStack) => void,
  others: RunningApp[] = [],
): void {
  let fake: FakeTwilio | undefined;
  let api: SystemApi | undefined;
  beforeAll(async () => {
    fake = await startFakeTwilio({ receiptDelayMs: 5 });
    api = await startSystemApi({
      DEV_OUTBOX: '0',
      DEV_CLOCK: '1',
      FREQUENCY_CAP_DAYS: '0',
      ...env,
      ...twilioSettings(fake, from),
    });
    ready({ fake, api, key: await api.createKey() });
  });
  afterAll(async () => {
    for (const other of others) await other.stop('SIGKILL');
    await api?.cleanup();
    await fake?.close();
  });
}
