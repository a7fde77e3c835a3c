import type { Config } from '../env.ts';
import { outboxProvider } from './outbox.ts';
import type { DeliveryProvider } from './provider.ts';
import { smtpProvider } from './smtp.ts';

export function createDeliveryProvider(config: Config): DeliveryProvider {
  if (config.deliveryProvider === 'smtp' && config.smtpUrl) {
    return smtpProvider({ url: config.smtpUrl, from: config.smtpFrom });
  }
  return outboxProvider({ faults: config.devOutbox });
}
