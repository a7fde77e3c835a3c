import { afterAll, beforeAll } from 'vitest';
import { type SystemApi, type SystemBff, startSystemApi, startSystemBff } from './stack.ts';

type Relay = { url: string; close(): Promise<void> };

export type ListStack<R extends Relay> = {
  api: SystemApi;
  /** The BFF that sends the lists. */
  bff: SystemBff;
  relay: R;
  /** Another BFF process on the same database and settings, stopped after the tests. */
  anotherBff(): Promise<SystemBff>;
};

/**
 * The list-send tests' processes, for the tests of one file: the real API (`api` settings) with a
 * key, and a BFF on it (`bff` settings over these: its clock movable over HTTP by the dev hooks,
 * the alerts' polls, which read with the same key, kept out of the way), through `relay` when
 * given. Started before the tests (the fields are set then), stopped after them.
 */
export function useListStack<R extends Relay = never>(options: {
  api: Record<string, string>;
  bff: Record<string, string>;
  /** A relay between the BFF and the API, started once the API is (the BFF's address comes later). */
  relay?: (apiUrl: string, bffUrl: () => string) => Promise<R>;
}): ListStack<R> {
  const others: SystemBff[] = [];
  const stack = {
    async anotherBff() {
      const bff = await startSystemBff(stack.relay?.url ?? stack.api.url, {
        ...stack.bff.env,
        BFF_DATABASE_PATH: stack.bff.databasePath,
      });
      others.push(bff);
      return bff;
    },
  } as ListStack<R>;
  beforeAll(async () => {
    stack.api = await startSystemApi(options.api);
    const key = await stack.api.createKey();
    if (options.relay) stack.relay = await options.relay(stack.api.url, () => stack.bff.url);
    stack.bff = await startSystemBff(stack.relay?.url ?? stack.api.url, {
      UPSTREAM_API_KEY: key,
      BFF_DEV_HOOKS: '1',
      ALERT_POLL_SECONDS: '86400',
      ...options.bff,
    });
  }, 120_000);
  afterAll(async () => {
    for (const other of others) await other.cleanup();
    await stack.bff?.cleanup();
    await stack.relay?.close();
    await stack.api?.cleanup();
  });
  return stack;
}
