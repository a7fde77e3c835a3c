import type { FakeTwilio } from '../../../../test/support/fake-twilio.ts';
import type { TwilioConfig } from '../../src/delivery/twilio.ts';

/**
 * The service's Twilio settings for texting through the stand-in Twilio: signed with the
 * account's own token, from one number (or what `overrides` say).
 */
export function fakeTwilioConfig(
  fake: Pick<FakeTwilio, 'url' | 'accountSid' | 'authToken'>,
  overrides: Partial<TwilioConfig> = {},
): TwilioConfig {
  return {
    accountSid: fake.accountSid,
    authToken: fake.authToken,
    username: fake.accountSid,
    password: fake.authToken,
    from: '+15005550006',
    messagingServiceSid: null,
    apiBase: fake.url,
    timeoutMs: 2_000,
    ...overrides,
  };
}
