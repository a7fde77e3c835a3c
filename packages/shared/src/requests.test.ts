import { describe, expect, it } from 'vitest';
import { queryRecord } from './query.ts';
import {
  LEG_STATE_WORDS,
  LEG_STATES,
  legStateAdvances,
  requestPath,
  requestsQuerySchema,
  requestsSearchParams,
} from './requests.ts';

describe('legStateAdvances', () => {
  it('moves a leg forward only: a late sent never undoes delivered, a replay changes nothing', () => {
    expect(legStateAdvances('queued', 'sent')).toBe(true);
    expect(legStateAdvances('sent', 'delivered')).toBe(true);
    expect(legStateAdvances('queued', 'delivered')).toBe(true);
    expect(legStateAdvances('delivered', 'sent')).toBe(false);
    expect(legStateAdvances('delivered', 'delivered')).toBe(false);
    expect(legStateAdvances('sent', 'sent')).toBe(false);
    expect(legStateAdvances('undelivered', 'delivered')).toBe(false);
    expect(legStateAdvances('delivered', 'undelivered')).toBe(false);
  });

  it('lets any receipt replace unknown, since it is better knowledge', () => {
    expect(legStateAdvances('unknown', 'queued')).toBe(true);
    expect(legStateAdvances('unknown', 'delivered')).toBe(true);
    expect(legStateAdvances('sent', 'unknown')).toBe(false);
  });
});

describe('requestsQuerySchema', () => {
  it('defaults page and limit and reads the filters', () => {
    expect(requestsQuerySchema.parse(queryRecord(''))).toEqual({ page: 1, limit: 20 });
    expect(requestsQuerySchema.parse(queryRecord('status=scheduled&channel=sms&page=2&limit=100'))).toEqual({
      page: 2,
      limit: 100,
      status: 'scheduled',
      channel: 'sms',
    });
  });

  it.each([
    ['status=delivered', /status must be one of scheduled, sending, sent, failed, unknown/],
    ['channel=fax', /channel must be one of sms, email, both, link/i],
    ['limit=101', /limit must be at most 100/],
    ['page=0', /page must be a whole number/],
    ['status=sent&status=failed', /status must be given once/],
    ['contact=x', /Unrecognized key/],
  ])('refuses %s with a message naming the parameter', (query, message) => {
    const parsed = requestsQuerySchema.safeParse(queryRecord(query));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message).join(' ')).toMatch(message);
  });

  it('writes a canonical query and a path for one request', () => {
    expect(requestsSearchParams({ page: 1, limit: 20, status: 'sent' }).toString()).toBe(
      'page=1&limit=20&status=sent',
    );
    expect(requestPath('req_abc')).toBe('/api/v1/requests/req_abc');
    expect(requestPath('a/b')).toBe('/api/v1/requests/a%2Fb');
  });
});

describe('LEG_STATE_WORDS', () => {
  it('has a label and a definition for every state, and never calls sent delivered', () => {
    for (const state of LEG_STATES) {
      expect(LEG_STATE_WORDS[state].label.length).toBeGreaterThan(0);
      expect(LEG_STATE_WORDS[state].meaning.length).toBeGreaterThan(20);
    }
    expect(LEG_STATE_WORDS.sent.meaning).toMatch(/Not a delivery receipt/);
    expect(LEG_STATE_WORDS.unknown.meaning).toMatch(/never retried automatically/);
  });
});
