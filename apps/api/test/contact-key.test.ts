import { DatabaseSync } from 'node:sqlite';
import { migrationFiles } from '@review-desk/server/db/migrate';
import { sendResultSchema, successEnvelopeSchema } from '@review-desk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/processes.ts';
import { optOut } from '../src/review-page/visits.ts';
import { API_MIGRATIONS, openApiDatabase } from '../src/store/database.ts';
import { describeEachEngine, expectFailure, outboxFor, send } from './helpers.ts';

// The frequency cap counts an email address under its contact key: a +tag (at providers that
// ignore it) or Gmail's dots do not make a new customer. The message goes to the address as given.

describeEachEngine({ monthlySendAllowance: 0 }, (api) => {
  let key: string;
  let n = 0;
  /** A local part no other test uses. */
  const fresh = (name: string) => `${name}${++n}x${process.pid}`;

  beforeAll(async () => {
    await api.business('cafe', 'Cafe');
    key = await api.key('cafe');
  });

  async function sentTo(result: { body: unknown }) {
    const { requestId } = successEnvelopeSchema(sendResultSchema).parse(result.body).data;
    return (await outboxFor(api, requestId)).map((m) => m.to);
  }

  const email = (customerEmail: string) => send(api, key, { customerEmail, channel: 'email' });

  describe('the frequency cap and plus-addressing', () => {
    it('refuses ana+1@gmail.com after ana@gmail.com, and the other spellings of that mailbox', async () => {
      const ana = fresh('ana');
      expect((await email(`${ana}@gmail.com`)).status).toBe(200);
      for (const spelling of [
        `${ana}+1@gmail.com`,
        `${ana}+2@GMAIL.com`,
        `${ana.slice(0, 2)}.${ana.slice(2)}@googlemail.com`,
      ]) {
        expectFailure(await email(spelling), 'frequency_capped');
      }
      // Through the other leg of a `both` send too.
      expectFailure(
        await send(api, key, {
          channel: 'both',
          customerPhone: '+14155550123',
          customerEmail: `${ana}+3@gmail.com`,
        }),
        'frequency_capped',
      );
    });

    it('sends to the address as typed, tag included, and caps the untagged one after it', async () => {
      const bo = fresh('bo');
      const first = await email(`${bo}+reviews@outlook.com`);
      expect(first.status).toBe(200);
      expect(await sentTo(first)).toEqual([`${bo}+reviews@outlook.com`]);
      expectFailure(await email(`${bo}@outlook.com`), 'frequency_capped');
    });

    it('keeps the tag where the provider may route it elsewhere', async () => {
      const sales = fresh('sales');
      expect((await email(`${sales}@company.example`)).status).toBe(200);
      const tagged = await email(`${sales}+eu@company.example`);
      expect(tagged.status).toBe(200);
      expect(await sentTo(tagged)).toEqual([`${sales}+eu@company.example`]);
    });
  });

  describe('opt-outs and plus-addressing', () => {
    it('an opt-out from ana+news@gmail.com covers the mailbox: ana@gmail.com and ana+2@gmail.com are refused', async () => {
      const ana = fresh('optana');
      const first = await email(`${ana}+news@gmail.com`);
      expect(first.status).toBe(200);
      const token = successEnvelopeSchema(sendResultSchema)
        .parse(first.body)
        .data.reviewLink.split('/r/')[1]!;
      await optOut(api.ctx.store, token, api.clock.now);
      api.clock.now += 400 * 86_400_000; // long after any cap
      try {
        for (const spelling of [`${ana}@gmail.com`, `${ana}+2@gmail.com`, `${ana}+news@gmail.com`]) {
          expectFailure(await email(spelling), 'opted_out');
        }
        // Elsewhere a tag may be another mailbox: only the address that opted out is refused.
        const sales = fresh('optsales');
        const other = await email(`${sales}+eu@company.example`);
        const otherToken = successEnvelopeSchema(sendResultSchema)
          .parse(other.body)
          .data.reviewLink.split('/r/')[1]!;
        await optOut(api.ctx.store, otherToken, api.clock.now);
        expectFailure(await email(`${sales}+eu@company.example`), 'opted_out');
        expect((await email(`${sales}@company.example`)).status).toBe(200);
      } finally {
        api.clock.now -= 400 * 86_400_000;
      }
    });
  });
});

// SQLite only: a file an older version wrote, opened by this one.
describe('requests stored before the contact key', () => {
  it('are keyed from their address when the database is opened, so they still count (requests and opt-outs)', async () => {
    const temp = tempDir('api-contact-key-');
    try {
      const file = `${temp.dir}/api.db`;
      // A database as the first version left it: migration 1 only, one request to a tagged address.
      const old = new DatabaseSync(file);
      const [first] = migrationFiles(API_MIGRATIONS, 'sqlite');
      old.exec(first!.sql);
      old.exec(`CREATE TABLE schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
      old
        .prepare('INSERT INTO schema_migrations VALUES (1, ?, ?)')
        .run(first!.name, new Date().toISOString());
      old.exec(`INSERT INTO businesses (slug, name, created_at) VALUES ('old', 'Old', 0)`);
      old.exec(`INSERT INTO requests (public_id, token, business_id, channel, customer_email, status, created_at)
        VALUES ('req_old', 'tok_old', 1, 'email', 'c.a.t+spring@gmail.com', 'sent', ${Date.now()})`);
      old.exec(
        `INSERT INTO opt_outs (business_id, contact, created_at) VALUES (1, 'c.a.t+spring@gmail.com', 0)`,
      );
      old.close();

      const db = await openApiDatabase({ databasePath: file });
      const row = await db.get('SELECT customer_email, email_key FROM requests');
      expect(row).toEqual({ customer_email: 'c.a.t+spring@gmail.com', email_key: 'cat@gmail.com' });
      const optOuts = await db.all('SELECT contact FROM opt_outs ORDER BY contact');
      expect(optOuts).toEqual([{ contact: 'c.a.t+spring@gmail.com' }, { contact: 'cat@gmail.com' }]);
      await db.close();
    } finally {
      temp.cleanup();
    }
  });
});
