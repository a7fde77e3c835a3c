import { once } from 'node:events';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { ERROR_CODES } from '@review-desk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bothChannels,
  expectFailure,
  send,
  sendOk,
  startTestApi,
  type TestApi,
  uniqueEmail,
} from './helpers.ts';

// DELIVERY_PROVIDER=smtp against a real SMTP conversation: a small server here speaks the
// protocol (RFC 5321) and refuses recipients at rejected.example, the way a mail server does.

type Mail = { from: string; to: string[]; data: string };

function smtpServer(): { server: Server; mails: Mail[] } {
  const mails: Mail[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let mail: Mail = { from: '', to: [], data: '' };
    let inData = false;
    socket.write('220 test.local ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          mail.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          mails.push(mail);
          mail = { from: '', to: [], data: '' };
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-test.local\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          mail.from = line;
          socket.write('250 2.1.0 ok\r\n');
        } else if (verb === 'RCPT') {
          if (line.includes('@rejected.example')) socket.write('550 5.1.1 mailbox unavailable\r\n');
          else {
            mail.to.push(line);
            socket.write('250 2.1.5 ok\r\n');
          }
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'RSET' || verb === 'NOOP') socket.write('250 ok\r\n');
        else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('502 5.5.2 not implemented\r\n');
      }
    });
    socket.on('error', () => {});
  });
  return { server, mails };
}

let smtp: ReturnType<typeof smtpServer>;
let api: TestApi;
let key: string;

beforeAll(async () => {
  smtp = smtpServer();
  smtp.server.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  const port = (smtp.server.address() as AddressInfo).port;
  api = await startTestApi({
    deliveryProvider: 'smtp',
    smtpUrl: `smtp://127.0.0.1:${port}`,
    smtpFrom: 'Review Desk <reviews@test.local>',
  });
  await api.business('mailer', 'Mailer Bakery');
  key = await api.key('mailer');
});
afterAll(async () => {
  await api.stop();
  smtp.server.close();
});

describe('DELIVERY_PROVIDER=smtp', () => {
  it('hands the email to the SMTP server, with the review link in its text', async () => {
    const email = uniqueEmail();
    const result = await sendOk(api, key, { customerName: 'Ines', customerEmail: email, channel: 'email' });
    const mail = smtp.mails.find((m) => m.to.some((t) => t.includes(email)))!;
    expect(mail).toBeDefined();
    expect(mail.from).toContain('reviews@test.local');
    const text = mail.data.replace(/=\r\n/g, '');
    expect(text).toContain('Subject: How was your visit to Mailer Bakery?');
    expect(text).toContain(result.body.data.reviewLink);
  });

  it('a recipient the server refuses: with both, a warning naming the email; alone, a 502', async () => {
    const both = await sendOk(api, key, bothChannels('rejected.example'));
    expect(both.body.data.warning).toMatch(/^Email: The mail server refused the email/);

    const alone = await send(api, key, { customerEmail: uniqueEmail('rejected.example'), channel: 'email' });
    const message = expectFailure(alone, 'delivery_failed');
    expect(message).toContain(ERROR_CODES.delivery_failed.message);
    expect(message).toContain('Email: The mail server refused the email');
  });
});
