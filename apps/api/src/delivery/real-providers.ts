// Which configured providers reach customers: the dev clock is refused beside them (env.ts).

const LOOPBACK = /^(127(\.\d{1,3}){3}|\[::1\]|localhost)$/i;

/**
 * The providers that would reach customers, as `VARIABLE=value` (none: every message stays on this
 * machine). Twilio's API reached on this machine's own address is the tests' stand-in
 * (test/support/fake-twilio.ts): the real one is api.twilio.com. Any SMTP server is real — a
 * relay on this machine delivers too.
 */
export function realProviders(p: {
  emailVariable: string;
  emailProvider: string;
  smsProvider: string;
  twilio: { apiBase: string } | null;
}): string[] {
  const real: string[] = [];
  if (p.smsProvider === 'twilio' && p.twilio && !LOOPBACK.test(new URL(p.twilio.apiBase).hostname))
    real.push(`SMS_PROVIDER=twilio at ${new URL(p.twilio.apiBase).origin}`);
  if (p.emailProvider !== 'outbox') real.push(`${p.emailVariable}=${p.emailProvider}`);
  return real;
}
