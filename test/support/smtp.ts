import { SMTPServer } from 'smtp-server';
import { listenLocal } from './http.ts';

// A real SMTP listener for tests (smtp-server): it accepts every message, keeps it, and can be
// told to refuse for a while. Messages are kept raw; `text` decodes the plain part of the
// simple multipart messages nodemailer writes (quoted-printable or base64).

export type CaughtMail = {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
  html: string;
};

export type SmtpCatcher = {
  url: string;
  messages: CaughtMail[];
  /** Resolves when at least `count` messages arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<CaughtMail[]>;
  close(): Promise<void>;
};

function decodePart(headers: string, body: string): string {
  if (/content-transfer-encoding:\s*base64/i.test(headers))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

export function parseMail(raw: string): { subject: string; text: string; html: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const subject = decodeHeader(/^subject:\s*(.*)$/im.exec(unfolded)?.[1] ?? '').replace(/\?=\s+=\?/g, '');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(unfolded)?.[1];
  const parts: { headers: string; body: string }[] = [];
  if (boundary) {
    for (const chunk of raw.split(`--${boundary}`).slice(1)) {
      const [h = '', ...b] = chunk.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      parts.push({ headers: h, body: b.join('\n\n') });
    }
  } else parts.push({ headers: unfolded, body: rest.join('\n\n') });
  const find = (type: string) => {
    const part = parts.find((p) => new RegExp(`content-type:\\s*${type}`, 'i').test(p.headers));
    return part ? decodePart(part.headers, part.body).replace(/\r\n/g, '\n').trim() : '';
  };
  return { subject, text: find('text/plain'), html: find('text/html') };
}

export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  const url = await listenLocal(server.server, 'smtp');
  return {
    url,
    messages,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} emails, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
