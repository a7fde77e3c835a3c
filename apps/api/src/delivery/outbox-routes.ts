import { isoTime } from '@review-desk/server/db/rows';
import { AppError } from '@review-desk/server/errors';
import {
  type OutboxMessage,
  ok,
  queryRecord,
  type SmsEncoding,
  smsSegments,
  toE164,
} from '@review-desk/shared';
import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { html, sendPage } from '../http/html.ts';
import { methodNotAllowed } from '../http/index.ts';
import type { OutboxRow } from './outbox-store.ts';

// The outbox delivery provider's messages, for development and tests (DEV_OUTBOX=1 only: it
// shows customers' contacts and live review links). Newest first.

const outboxQuerySchema = z.strictObject({
  to: z.string({ error: 'to must be given once' }).trim().min(1).max(320).optional(),
  requestId: z.string({ error: 'requestId must be given once' }).min(1).max(64).optional(),
  limit: z
    .string({ error: 'limit must be given once' })
    .regex(/^[0-9]{1,4}$/, { error: 'limit must be a whole number from 1 to 1000' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: 'limit must be a whole number from 1 to 1000' })
        .max(1000, { error: 'limit must be a whole number from 1 to 1000' }),
    )
    .default(100),
});

/** The same contact in any spelling the send form accepts: E.164 phone or lower-cased email. */
function normaliseContact(value: string): string {
  if (value.includes('@')) return value.toLowerCase();
  return toE164(value) ?? value;
}

function toMessage(row: OutboxRow): OutboxMessage {
  return {
    id: `msg_${row.id}`,
    requestId: row.request_public_id,
    ...(row.kind === 'reply' ? { reply: true } : {}),
    channel: row.channel,
    to: row.to_addr,
    subject: row.subject,
    body: row.body,
    reviewLink: row.review_link,
    status: row.status,
    error: row.error,
    createdAt: isoTime(row.created_at),
    sms: row.channel === 'sms' ? segmentsOf(row.body) : null,
  };
}

async function testMessages(
  ctx: AppContext,
  to: string | undefined,
  requestId: string | undefined,
  limit: number,
): Promise<OutboxMessage[]> {
  const id = requestId === undefined ? undefined : /^test_([0-9]{1,15})$/.exec(requestId)?.[1];
  if (requestId !== undefined && id === undefined) return [];
  const rows = await ctx.settings.testSends({ to, id: id === undefined ? undefined : Number(id) }, limit);
  return rows.map((row) => ({
    ...toMessage({
      id: row.id,
      request_id: 0,
      request_public_id: `test_${row.id}`,
      channel: row.channel,
      to_addr: row.to_addr,
      subject: row.subject,
      body: row.body,
      review_link: row.review_link,
      status: row.status === 'failed' ? 'failed' : 'accepted',
      error: row.error,
      created_at: row.created_at,
      kind: 'request',
    }),
    id: `test_${row.id}`,
    test: true,
  }));
}

function segmentsOf(body: string): { segments: number; encoding: SmsEncoding } {
  const { segments, encoding } = smsSegments(body);
  return { segments, encoding };
}

export function devOutboxRoutes(ctx: AppContext): Router {
  const router = Router();
  const read = async (originalUrl: string) => {
    const q = originalUrl.indexOf('?');
    const parsed = outboxQuerySchema.safeParse(queryRecord(q === -1 ? '' : originalUrl.slice(q + 1)));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const { to, requestId, limit } = parsed.data;
    const contact = to ? normaliseContact(to) : undefined;
    const requests = (await ctx.store.outbox.list({ to: contact, requestId }, limit)).map(toMessage);
    // The Settings page's tests beside them, marked (settings/test-send.ts).
    const tests = await testMessages(ctx, contact, requestId, limit);
    return [...requests, ...tests].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
  };

  router.get('/dev/outbox.json', async (req, res) => {
    res.json(ok({ messages: await read(req.originalUrl) }));
  });

  router.get('/dev/outbox', async (req, res) => {
    const messages = await read(req.originalUrl);
    sendPage(res, 200, {
      title: 'Outbox',
      className: 'wide',
      body: html`<main>
<h1>Outbox</h1>
<p class="muted">Messages the <code>outbox</code> delivery provider kept instead of handing them to a carrier, newest first.
Fault hooks: an SMS to a number ending in 0000 fails; an email to an address at fail.example bounces.</p>
<table>
  <thead><tr><th scope="col">When (UTC)</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Message</th><th scope="col">Request</th></tr></thead>
  <tbody>
  ${messages.map(
    (m) => html`<tr>
    <td>${m.createdAt.replace('T', ' ').slice(0, 19)}</td>
    <td>${m.channel}${m.sms ? html`<br><span class="muted">${m.sms.segments} × ${m.sms.encoding}</span>` : null}</td>
    <td>${m.to}</td>
    <td class="${m.status === 'failed' ? 'failed' : ''}">${m.status}${m.error ? html`<br>${m.error}` : null}</td>
    <td>${m.subject ? html`<strong>${m.subject}</strong><br>` : null}<pre tabindex="0">${m.body}</pre><a href="${m.reviewLink}">Open review link</a></td>
    <td>${m.test ? html`<strong>Test</strong> (not a request)` : html`<code>${m.requestId}</code>`}</td>
  </tr>`,
  )}
  </tbody>
</table>
${messages.length === 0 ? html`<p>No messages yet.</p>` : null}
</main>`,
    });
  });

  router.all('/dev/outbox', methodNotAllowed(['GET']));
  router.all('/dev/outbox.json', methodNotAllowed(['GET']));
  return router;
}
