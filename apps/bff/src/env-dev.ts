import * as setting from '@review-desk/server/config';

// The dev hooks' refusals (BFF_DEV_HOOKS), apart from the configuration table (env.ts): whoever
// can reach the BFF may use them.

export function refuseDevHooks(h: {
  devHooks: boolean;
  nodeEnv: string | undefined;
  smtpUrl: unknown;
}): void {
  if (h.devHooks && h.nodeEnv === 'production')
    throw setting.configError(
      'BFF_DEV_HOOKS',
      'must be off when NODE_ENV=production (it lets anyone move the clock)',
    );
  // Whoever can reach the BFF may move its clock: beside a mail server, alert emails and digests
  // would go to real people on a clock anyone sets. (A real upstream is refused at start: main.ts.)
  if (h.devHooks && h.smtpUrl !== undefined)
    throw setting.configError(
      'BFF_DEV_HOOKS',
      'must be off with BFF_SMTP_URL (a real mail server): anyone could move the clock; without BFF_SMTP_URL the emails stay on the dev outbox page',
    );
}
