import { createHmac } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../../test/support/fault-upstream.ts';
import { type TestBff, useBffOnFakeUpstream } from './support/bff.ts';
import type { DashboardClient } from './support/client.ts';

// The send history (and so the send form's "sent to this contact N days ago" warning) finds an
// email address under its contact key: ana+1@gmail.com is the customer ana@gmail.com was. What
// goes upstream is the address as typed.

let upstream: FakeUpstream;
let bff: TestBff;
let owner: DashboardClient;
const SEND = '/api/v1/requests/send';

useBffOnFakeUpstream((stack) => ({ upstream, bff, owner } = stack));

const history = async (contact: string) => {
  const reply = await owner.get(`/bff/sends?contact=${encodeURIComponent(contact)}`);
  expect(reply.status).toBe(200);
  return reply.json.data.sends.map((s: { customerName: string }) => s.customerName) as string[];
};

describe('send history by contact key', () => {
  it('finds the send to ana@gmail.com when ana+1@gmail.com is about to be sent to; the upstream gets the address as typed', async () => {
    expect(
      (await owner.send({ channel: 'email', customerEmail: 'ana@gmail.com', customerName: 'Ana' })).status,
    ).toBe(200);
    for (const spelling of ['ana+1@gmail.com', 'A.NA+promo@googlemail.com', 'ana@gmail.com']) {
      expect(await history(spelling)).toEqual(['Ana']);
    }
    // Tagged at a provider that may route tags elsewhere: another contact.
    expect(await history('ana+1@company.example')).toEqual([]);

    const tagged = await owner.send({
      channel: 'email',
      customerEmail: 'Ana+1@Gmail.com',
      customerName: 'Ana 2',
    });
    expect(tagged.status).toBe(200);
    const forwarded = upstream.calls.filter((c) => c.url === SEND).at(-1)!;
    expect(JSON.parse(forwarded.body.toString()).customerEmail).toBe('ana+1@gmail.com');
    expect(await history('ana@gmail.com')).toEqual(['Ana 2', 'Ana']);
  });

  it('still finds a send journaled before the contact key, under the address it was sent to', async () => {
    // A row as the journal wrote it before: the HMAC of the lower-cased address.
    const db = new DatabaseSync(bff.databasePath, { timeout: 5_000 });
    try {
      const { value: secret } = db
        .prepare(`SELECT value FROM meta WHERE key = 'contact_hash_secret'`)
        .get() as {
        value: string;
      };
      const legacy = createHmac('sha256', secret).update('email:old+tag@gmail.com').digest('base64url');
      db.prepare(
        `INSERT INTO sends (id, user_id, sent_by, fingerprint, channel, customer_name, contact_masked, email_hash,
           outcome, created_at, finished_at)
         VALUES ('legacy-1', 'u', 'owner@example.com', 'f', 'email', 'Old', 'o•••@gmail.com', ?, 'sent', ?, ?)`,
      ).run(legacy, Date.now() - 1_000, Date.now() - 1_000);
    } finally {
      db.close();
    }
    expect(await history('old+tag@gmail.com')).toEqual(['Old']);
    // A send made now under the key is found from either spelling, with the old one.
    expect(
      (await owner.send({ channel: 'email', customerEmail: 'old@gmail.com', customerName: 'New' })).status,
    ).toBe(200);
    expect(await history('old+tag@gmail.com')).toEqual(['New', 'Old']);
    expect(await history('old@gmail.com')).toEqual(['New']);
  });
});
