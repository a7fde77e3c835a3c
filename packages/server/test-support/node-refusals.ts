import { expect } from 'vitest';

/**
 * What Node would answer by itself, sent byte for byte through `send` (a raw exchange that
 * returns the whole answer): a request without Host gets the envelope with 400 host_missing, one
 * with an unknown Expect 417 expectation_failed, like any other refusal of the server kit.
 */
export async function expectNodeRefusals(
  send: (bytes: string) => Promise<string>,
  requests: { withoutHost: string; withExpect: string },
): Promise<void> {
  const noHost = await send(requests.withoutHost);
  expect(noHost).toMatch(/^HTTP\/1.1 400 /);
  expect(noHost).toContain('"code":"host_missing"');
  const expectation = await send(requests.withExpect);
  expect(expectation).toMatch(/^HTTP\/1.1 417 /);
  expect(expectation).toContain('"code":"expectation_failed"');
}
