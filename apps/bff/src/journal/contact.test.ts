import { describe, expect, it } from 'vitest';
import { createContactHasher, maskContact, maskEmail, maskPhone, normaliseContactFilter } from './contact.ts';

describe('contacts in the journal', () => {
  it('masks phones and emails', () => {
    expect(maskPhone('+14155552671')).toBe('+1 ••• ••• 2671');
    expect(maskPhone('+442079460958')).toBe('+44 ••• ••• 0958');
    // Three-digit and non-geographic calling codes, as libphonenumber reads them.
    expect(maskPhone('+353861234567')).toBe('+353 ••• ••• 4567');
    expect(maskPhone('+80012345678')).toBe('+800 ••• ••• 5678');
    expect(maskPhone('+882345678901')).toBe('+882 ••• ••• 8901');
    expect(maskPhone('+99912345678')).toBe('+••• 5678');
    expect(maskEmail('ann@example.com')).toBe('a•••@example.com');
    expect(maskContact({ phone: '+14155552671', email: 'ann@example.com' })).toBe(
      '+1 ••• ••• 2671, a•••@example.com',
    );
    expect(maskContact({})).toBe('');
  });

  it('normalises a filter the way the send form does', () => {
    expect(normaliseContactFilter(' +1 (415) 555-2671 ')).toEqual({ kind: 'phone', value: '+14155552671' });
    expect(normaliseContactFilter('Ann@Example.COM')).toEqual({ kind: 'email', value: 'ann@example.com' });
    expect(normaliseContactFilter('4155552671')).toHaveProperty('error');
  });

  it('hashes with a secret: same contact, same hash; another secret, another hash', () => {
    const a = createContactHasher('secret-a');
    const b = createContactHasher('secret-b');
    expect(a.phone('+14155552671')).toBe(a.phone('+14155552671'));
    expect(a.phone('+14155552671')).not.toBe(b.phone('+14155552671'));
    expect(a.email('x@example.com')).not.toBe(a.phone('x@example.com'));
  });
});
