import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../journal/journal.ts';
import { PROXY_MESSAGES } from './messages.ts';
import { answerExisting } from './send-outcome.ts';

// What a key already in the journal means for a new attempt with it (send-outcome.ts,
// answerExisting): replay a finished send, or the refusal and its code. One row per case.

const JSON_TYPE = 'application/json; charset=utf-8';

describe('what a key already in the journal means for a new attempt', () => {
  const NOW = 1_000_000;
  const STALE_AFTER = 10_000;
  const entry = (over: Partial<JournalEntry>): JournalEntry => ({
    id: 'e1',
    fingerprint: 'print',
    location: 'loc-a',
    outcome: 'sent',
    httpStatus: 200,
    responseType: JSON_TYPE,
    responseBody: Buffer.from('{"success":true}'),
    createdAt: NOW - 1_000,
    ...over,
  });
  const cases: [string, JournalEntry, string, unknown][] = [
    [
      'another intent',
      entry({ fingerprint: 'other' }),
      'print',
      { code: 'idempotency_mismatch', metric: 'key_reused' },
    ],
    [
      'still in flight',
      entry({ outcome: 'in_flight', httpStatus: null, responseBody: null }),
      'print',
      { code: 'idempotency_in_flight', metric: 'in_flight_conflict', message: PROXY_MESSAGES.inFlight },
    ],
    [
      'in flight past its deadline',
      entry({ outcome: 'in_flight', httpStatus: null, responseBody: null, createdAt: NOW - STALE_AFTER - 1 }),
      'print',
      {
        code: 'outcome_unknown',
        metric: 'unknown_conflict',
        message: PROXY_MESSAGES.outcomeUnknown,
        orphanStale: true,
      },
    ],
    [
      'unknown',
      entry({ outcome: 'unknown', httpStatus: 504, responseBody: null }),
      'print',
      { code: 'outcome_unknown', metric: 'unknown_conflict', message: PROXY_MESSAGES.outcomeUnknown },
    ],
    [
      'sent, its answer forgotten',
      entry({ responseBody: null }),
      'print',
      { code: 'outcome_unknown', metric: 'unknown_conflict' },
    ],
    [
      'the same intent at another location',
      entry({ location: 'loc-b' }),
      'print',
      { code: 'idempotency_mismatch', metric: 'key_reused', message: PROXY_MESSAGES.keyOtherLocation },
    ],
    ['sent', entry({}), 'print', { replay: 200 }],
    ['warning', entry({ outcome: 'warning' }), 'print', { replay: 200 }],
  ];
  it.each(cases)('%s', (_name, existing, fingerprint, expected) => {
    const answer = answerExisting(existing, { fingerprint, location: 'loc-a' }, NOW, STALE_AFTER);
    if (answer.kind === 'replay') {
      expect({ replay: answer.status }).toEqual(expected);
      expect(answer.body).toEqual(existing.responseBody);
      return;
    }
    const seen: Record<string, unknown> = { code: answer.error.code, metric: answer.metric };
    const wanted = expected as Record<string, unknown>;
    if ('message' in wanted) seen.message = answer.error.message;
    if (answer.orphanStale) seen.orphanStale = true;
    expect(seen).toEqual(wanted);
  });
});
