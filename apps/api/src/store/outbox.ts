import type { Db } from './db.ts';

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
};

export type NewOutboxMessage = {
  requestId: number;
  channel: 'sms' | 'email';
  to: string;
  subject: string | null;
  body: string;
  reviewLink: string;
  status: 'accepted' | 'failed';
  error: string | null;
  createdAt: number;
};

export function outboxStore(db: Db) {
  const insert = db.prepare(`INSERT INTO outbox_messages
    (request_id, channel, to_addr, subject, body, review_link, status, error, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const select = `SELECT m.*, r.public_id AS request_public_id FROM outbox_messages m
    JOIN requests r ON r.id = m.request_id`;
  const latest = db.prepare(`${select} ORDER BY m.id DESC LIMIT ?`);
  const byTo = db.prepare(`${select} WHERE m.to_addr = ? ORDER BY m.id DESC LIMIT ?`);
  const byRequest = db.prepare(`${select} WHERE r.public_id = ? ORDER BY m.id DESC LIMIT ?`);
  const byToAndRequest = db.prepare(
    `${select} WHERE m.to_addr = ? AND r.public_id = ? ORDER BY m.id DESC LIMIT ?`,
  );
  return {
    insert(m: NewOutboxMessage): void {
      insert.run(
        m.requestId,
        m.channel,
        m.to,
        m.subject,
        m.body,
        m.reviewLink,
        m.status,
        m.error,
        m.createdAt,
      );
    },
    /** Newest first. */
    list(filter: { to?: string | undefined; requestId?: string | undefined }, limit: number): OutboxRow[] {
      if (filter.to && filter.requestId)
        return byToAndRequest.all(filter.to, filter.requestId, limit) as OutboxRow[];
      if (filter.to) return byTo.all(filter.to, limit) as OutboxRow[];
      if (filter.requestId) return byRequest.all(filter.requestId, limit) as OutboxRow[];
      return latest.all(limit) as OutboxRow[];
    },
  };
}
