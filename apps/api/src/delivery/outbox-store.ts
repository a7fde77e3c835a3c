import type { Queryable } from '@review-desk/server/db/types';

export type OutboxRow = {
  id: number;
  request_id: number;
  request_public_id: string;
  channel: 'sms' | 'email';
  to_addr: string;
  subject: string | null;
  body: string;
  review_link: string;
  status: 'accepted' | 'failed';
  error: string | null;
  created_at: number;
  /** A request's own message, its reminder, or the business's reply to the customer's review. */
  kind: OutboxKind;
};

export type OutboxKind = 'request' | 'reminder' | 'reply';

export type NewOutboxMessage = {
  /** The request's public id (its row is found by it, so the message can be written with it). */
  requestPublicId: string;
  channel: 'sms' | 'email';
  to: string;
  subject: string | null;
  body: string;
  reviewLink: string;
  status: 'accepted' | 'failed';
  error: string | null;
  createdAt: number;
  kind?: OutboxKind;
};

export function outboxStore(db: Queryable) {
  const insert = db.prepare(`INSERT INTO outbox_messages
    (request_id, channel, to_addr, subject, body, review_link, status, error, created_at, kind)
    VALUES ((SELECT id FROM requests WHERE public_id = $1), $2, $3, $4, $5, $6, $7, $8, $9, $10)`);
  const select = `SELECT m.*, r.public_id AS request_public_id FROM outbox_messages m
    JOIN requests r ON r.id = m.request_id`;
  const latest = db.prepare(`${select} ORDER BY m.id DESC LIMIT $1`);
  const byTo = db.prepare(`${select} WHERE m.to_addr = $1 ORDER BY m.id DESC LIMIT $2`);
  const byRequest = db.prepare(`${select} WHERE r.public_id = $1 ORDER BY m.id DESC LIMIT $2`);
  const byToAndRequest = db.prepare(
    `${select} WHERE m.to_addr = $1 AND r.public_id = $2 ORDER BY m.id DESC LIMIT $3`,
  );
  return {
    async insert(m: NewOutboxMessage): Promise<void> {
      await insert.run(
        m.requestPublicId,
        m.channel,
        m.to,
        m.subject,
        m.body,
        m.reviewLink,
        m.status,
        m.error,
        m.createdAt,
        m.kind ?? 'request',
      );
    },
    /** The outbox's copy of each message handed over for a request, with its outcome. */
    async insertLegs(
      requestPublicId: string,
      legs: readonly {
        message: Pick<NewOutboxMessage, 'channel' | 'to' | 'subject' | 'body' | 'reviewLink'>;
        outcome: { status: 'accepted' | 'failed' | 'unknown'; error?: string };
      }[],
      at: number,
      kind: OutboxKind = 'request',
    ): Promise<void> {
      await Promise.all(
        legs.map(({ message, outcome }) =>
          this.insert({
            requestPublicId,
            channel: message.channel,
            to: message.to,
            subject: message.subject,
            body: message.body,
            reviewLink: message.reviewLink,
            status: outcome.status === 'failed' ? 'failed' : 'accepted',
            error: outcome.status === 'accepted' ? null : (outcome.error ?? null),
            createdAt: at,
            kind,
          }),
        ),
      );
    },
    /** Newest first. */
    list(filter: { to?: string | undefined; requestId?: string | undefined }, limit: number) {
      if (filter.to && filter.requestId)
        return byToAndRequest.all<OutboxRow>(filter.to, filter.requestId, limit);
      if (filter.to) return byTo.all<OutboxRow>(filter.to, limit);
      if (filter.requestId) return byRequest.all<OutboxRow>(filter.requestId, limit);
      return latest.all<OutboxRow>(limit);
    },
  };
}
