import { describe, expect, it } from 'vitest';
import { emailContactKey } from './contact.ts';
import { sendRequestSchema } from './send.ts';

describe('emailContactKey', () => {
  it.each([
    ['Gmail: +tag dropped', 'ana+1@gmail.com', 'ana@gmail.com'],
    ['Gmail: every +tag is the same mailbox', 'ana+reviews+2024@gmail.com', 'ana@gmail.com'],
    ['Gmail: dots in the local part ignored', 'a.n.a@gmail.com', 'ana@gmail.com'],
    ['Gmail: dots and tag together, any case', 'A.Na+Promo@GMail.COM', 'ana@gmail.com'],
    ['googlemail.com is gmail.com', 'a.na+x@googlemail.com', 'ana@gmail.com'],
    ['Outlook: +tag dropped, dots kept', 'ana.lee+shop@outlook.com', 'ana.lee@outlook.com'],
    ['iCloud: +tag dropped', 'Ana+1@iCloud.com', 'ana@icloud.com'],
    ['Proton: +tag dropped', 'ana+1@proton.me', 'ana@proton.me'],
    ['other domains: +tag kept (its meaning is theirs)', 'sales+eu@example.com', 'sales+eu@example.com'],
    ['other domains: dots kept', 'a.na@example.com', 'a.na@example.com'],
    ['other domains: lower-cased', 'Ana.Lee@Example.COM', 'ana.lee@example.com'],
    ['Yahoo: +tag kept (Yahoo does not ignore it)', 'ana+1@yahoo.com', 'ana+1@yahoo.com'],
    ['a subdomain of gmail.com is not Gmail', 'a.na+1@mail.gmail.com', 'a.na+1@mail.gmail.com'],
    ['surrounding spaces ignored', '  ana+1@gmail.com ', 'ana@gmail.com'],
    ['trailing dot of the domain ignored', 'ana+1@gmail.com.', 'ana@gmail.com'],
    ['IDN domain in punycode, either way it is typed', 'ana@Bücher.de', 'ana@xn--bcher-kva.de'],
    ['IDN domain already in punycode', 'ana@xn--bcher-kva.de', 'ana@xn--bcher-kva.de'],
    ['one Unicode form of the local part', 'jose\u0301@example.com', 'jos\u00e9@example.com'],
    ['a tag alone is not dropped to nothing', '+ana@gmail.com', '+ana@gmail.com'],
    ['dots alone are not dropped to nothing', '...@gmail.com', '...@gmail.com'],
    ['not an address: lower-cased as it is', 'Not-An-Address', 'not-an-address'],
  ])('%s: %s → %s', (_name, email, key) => {
    expect(emailContactKey(email)).toBe(key);
  });

  it('one key for every spelling of one Gmail mailbox, so plus-addressing cannot bypass the cap', () => {
    const spellings = ['ana@gmail.com', 'Ana+1@gmail.com', 'ana+2@GMAIL.com', 'a.n.a+3@googlemail.com'];
    expect(new Set(spellings.map(emailContactKey))).toEqual(new Set(['ana@gmail.com']));
  });

  it('is only a key: the send still goes to the address itself, tag and dots kept', () => {
    const parsed = sendRequestSchema.parse({ channel: 'email', customerEmail: 'a.na+reviews@gmail.com' });
    expect(parsed.customerEmail).toBe('a.na+reviews@gmail.com');
    expect(emailContactKey(parsed.customerEmail!)).toBe('ana@gmail.com');
  });

  it('is stable: a key is its own key', () => {
    for (const email of ['a.na+1@googlemail.com', 'Sales+EU@Example.com', 'ana@Bücher.de'])
      expect(emailContactKey(emailContactKey(email))).toBe(emailContactKey(email));
  });
});
