import nodemailer, { type Transporter } from 'nodemailer';

// One SMTP connection setting for both services (the service's email leg, the BFF's alerts): an
// `smtp://` or `smtps://` URL with optional credentials. Every wait is bounded, so a dead server
// fails the message instead of holding it.

export function smtpTransport(smtpUrl: string): Transporter {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
}
