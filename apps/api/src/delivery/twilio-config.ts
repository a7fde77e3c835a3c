import * as setting from '@review-desk/server/config';
import type { TwilioConfig } from './twilio.ts';

/** Twilio's settings with SMS_PROVIDER=twilio; a missing one stops the start naming it. */
export function twilioConfig(e: {
  TWILIO_ACCOUNT_SID?: string | undefined;
  TWILIO_AUTH_TOKEN?: string | undefined;
  TWILIO_API_KEY_SID?: string | undefined;
  TWILIO_API_KEY_SECRET?: string | undefined;
  TWILIO_FROM?: string | undefined;
  TWILIO_MESSAGING_SERVICE_SID?: string | undefined;
  TWILIO_API_BASE: URL;
  TWILIO_TIMEOUT_MS: number;
}): TwilioConfig {
  const need = (name: string, value: string | undefined, why: string): string => {
    if (!value) throw setting.configError(name, `is required when SMS_PROVIDER=twilio (${why})`);
    return value;
  };
  const accountSid = need('TWILIO_ACCOUNT_SID', e.TWILIO_ACCOUNT_SID, 'the account texts are sent from');
  const authToken = need('TWILIO_AUTH_TOKEN', e.TWILIO_AUTH_TOKEN, 'it verifies Twilio’s webhooks');
  if (e.TWILIO_API_KEY_SID && !e.TWILIO_API_KEY_SECRET)
    throw setting.configError('TWILIO_API_KEY_SECRET', 'is required with TWILIO_API_KEY_SID');
  if (e.TWILIO_API_KEY_SECRET && !e.TWILIO_API_KEY_SID)
    throw setting.configError('TWILIO_API_KEY_SID', 'is required with TWILIO_API_KEY_SECRET');
  if (!e.TWILIO_FROM && !e.TWILIO_MESSAGING_SERVICE_SID)
    throw setting.configError(
      'TWILIO_FROM',
      'or TWILIO_MESSAGING_SERVICE_SID is required when SMS_PROVIDER=twilio (who the texts come from)',
    );
  return {
    accountSid,
    authToken,
    username: e.TWILIO_API_KEY_SID ?? accountSid,
    password: e.TWILIO_API_KEY_SECRET ?? authToken,
    from: e.TWILIO_MESSAGING_SERVICE_SID ? null : (e.TWILIO_FROM ?? null),
    messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID ?? null,
    apiBase: e.TWILIO_API_BASE.toString(),
    timeoutMs: e.TWILIO_TIMEOUT_MS,
  };
}
