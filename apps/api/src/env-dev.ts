import * as setting from '@review-desk/server/config';

// The dev hooks' refusals (DEV_CLOCK, DEV_OUTBOX), apart from the configuration table (env.ts):
// anyone who reaches the process may use them, so never in production nor beside a provider that
// reaches real people.

export function refuseDevHooks(h: {
  devClock: boolean;
  devOutbox: boolean;
  nodeEnv: string | undefined;
  /** The real providers configured (delivery/real-providers.ts). */
  real: readonly string[];
  emailVariable: string;
  emailProvider: string;
  smsProvider: string;
}): void {
  if (h.devClock && h.nodeEnv === 'production')
    throw setting.configError(
      'DEV_CLOCK',
      'must be off when NODE_ENV=production (anyone could move the clock)',
    );
  // Anyone, signed in or not, may move the dev clock: beside a provider that reaches customers it
  // would let them skip a frequency cap, the sending hours or a reminder's wait, whatever NODE_ENV says.
  if (h.devClock && h.real.length > 0)
    throw setting.configError(
      'DEV_CLOCK',
      `must be off with a real delivery provider (${h.real.join(', ')}): anyone could move the clock`,
    );
  // The dev outbox shows customers' contacts and its fault hooks fail real sends on purpose.
  if (h.devOutbox && h.nodeEnv === 'production')
    throw setting.configError(
      'DEV_OUTBOX',
      'must be off when NODE_ENV=production (it lists customers’ contacts)',
    );
  if (h.devOutbox && h.emailProvider !== 'outbox')
    throw setting.configError(
      'DEV_OUTBOX',
      `must be off with a real delivery provider (${h.emailVariable}=${h.emailProvider})`,
    );
  if (h.devOutbox && h.smsProvider !== 'outbox')
    throw setting.configError(
      'DEV_OUTBOX',
      `must be off with a real delivery provider (SMS_PROVIDER=${h.smsProvider})`,
    );
}
