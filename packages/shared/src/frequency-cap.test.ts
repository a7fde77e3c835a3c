import { describe, expect, it } from 'vitest';
import { messagedContacts } from './channels.ts';
import { capWindowStart, countsTowardCap } from './frequency-cap.ts';
import { DAY_MS } from './time.ts';

describe('the contacts a channel messages', () => {
  it('are the phone for sms, the address for email, both for both, none for a link', () => {
    const given = { phone: '+14155550100', email: 'ana@example.com' };
    expect(messagedContacts('sms', given)).toEqual({ phone: given.phone, email: null });
    expect(messagedContacts('email', given)).toEqual({ phone: null, email: given.email });
    expect(messagedContacts('both', given)).toEqual(given);
    expect(messagedContacts('link', given)).toEqual({ phone: null, email: null });
    expect(messagedContacts('both', { phone: given.phone })).toEqual({ phone: given.phone, email: null });
  });
});

describe('the frequency cap', () => {
  const now = Date.UTC(2030, 0, 31);
  const window = { now, capDays: 30 };
  const at = (days: number) => now - days * DAY_MS;

  it('starts its window capDays before now, inclusive', () => {
    expect(capWindowStart(now, 30)).toBe(now - 30 * DAY_MS);
    expect(countsTowardCap({ status: 'sent', createdAt: at(30) }, window)).toBe(true);
    expect(countsTowardCap({ status: 'sent', createdAt: at(30) - 1 }, window)).toBe(false);
  });

  it('counts what may have reached the contact, not what surely reached nobody', () => {
    for (const status of ['sending', 'sent', 'in_flight', 'warning', 'unknown', 'scheduled'])
      expect(countsTowardCap({ status, createdAt: at(1) }, window)).toBe(true);
    expect(countsTowardCap({ status: 'failed', createdAt: at(1) }, window)).toBe(false);
    expect(countsTowardCap({ status: 'sent', createdAt: Number.NaN }, window)).toBe(false);
    expect(countsTowardCap({ status: 'sent', createdAt: at(1) }, { now, capDays: 0 })).toBe(false);
  });

  it('for a contact, counts only a channel that messaged it and a message there that did not fail', () => {
    const sent = (channel: 'sms' | 'email' | 'both' | 'link', failedLeg: 'sms' | 'email' | null = null) => ({
      status: 'sent',
      createdAt: at(1),
      channel,
      failedLeg,
    });
    expect(countsTowardCap(sent('sms'), window, 'phone')).toBe(true);
    expect(countsTowardCap(sent('sms'), window, 'email')).toBe(false);
    expect(countsTowardCap(sent('link'), window, 'phone')).toBe(false);
    expect(countsTowardCap(sent('both', 'sms'), window, 'phone')).toBe(false);
    expect(countsTowardCap(sent('both', 'sms'), window, 'email')).toBe(true);
    // The journal knows neither: its outcome and the window decide.
    expect(countsTowardCap({ status: 'sent', createdAt: at(1) }, window, 'phone')).toBe(true);
  });
});
