import type { LegChannel } from '@review-desk/shared';
import type { Config } from '../env.ts';
import { outboxProvider } from './outbox.ts';
import type { DeliveryProvider } from './provider.ts';
import { smtpProvider } from './smtp.ts';
import { twilioProvider } from './twilio.ts';

// The providers of each channel (SMS_PROVIDER, EMAIL_PROVIDER) behind one DeliveryProvider that
// hands each message to its channel's provider.

export type DeliveryOptions = {
  /** The status callback URL Twilio is given (PUBLIC_ORIGIN + /webhooks/twilio/status). */
  statusCallback: () => string;
};

export function createDeliveryProvider(config: Config, options?: DeliveryOptions): DeliveryProvider {
  const outbox = outboxProvider({ faults: config.devOutbox });
  const email =
    config.deliveryProvider === 'smtp' && config.smtpUrl
      ? smtpProvider({ url: config.smtpUrl, from: config.smtpFrom })
      : outbox;
  const sms: DeliveryProvider =
    config.smsProvider === 'twilio' && config.twilio
      ? {
          ...twilioProvider({
            ...config.twilio,
            statusCallback: options?.statusCallback ?? (() => ''),
          }),
          sender: () => config.twilio?.messagingServiceSid ?? config.twilio?.from ?? null,
        }
      : outbox;
  return byChannel({ sms, email });
}

/** One provider per channel, seen as one. */
export function byChannel(providers: Record<LegChannel, DeliveryProvider>): DeliveryProvider {
  const { sms, email } = providers;
  const name = sms.name === 'outbox' ? email.name : sms === email ? sms.name : `${sms.name}+${email.name}`;
  return {
    name,
    nameFor: (channel) => providers[channel].nameFor?.(channel) ?? providers[channel].name,
    sender: () => sms.sender?.() ?? null,
    deliver: (message) => providers[message.channel].deliver(message),
    decideNow(message) {
      const provider = providers[message.channel];
      return provider.decideNow ? provider.decideNow(message) : null;
    },
    async close() {
      await sms.close();
      if (email !== sms) await email.close();
    },
  };
}
