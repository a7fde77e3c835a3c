import { FakeClock } from '@review-desk/server/clock';
import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import type { WebhookEndpoint } from '@review-desk/shared';
import { beforeEach, expect, it } from 'vitest';
import { ALERT_MIGRATIONS } from './store.ts';
import { createPauseStore } from './webhook-pauses.ts';

const paused = (id: string, pausedAt: string): WebhookEndpoint => ({
  id,
  url: `https://hooks.example.com/${id}`,
  events: ['request.sent'],
  state: 'paused',
  pausedAt,
  pausedReason: 'The endpoint answered 503',
  createdAt: '2026-11-20T10:00:00.000Z',
  previousSecretUntil: null,
  lastSuccessAt: null,
  lastFailureAt: pausedAt,
});

describeEngines('webhook pause notices', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [ALERT_MIGRATIONS] });
  const clock = new FakeClock(Date.parse('2026-11-25T10:00:00Z'), { frozen: true });
  const store = () => createPauseStore(database().db, clock);
  const rows = async () =>
    (await database().db.all<{ n: number }>('SELECT count(*) AS n FROM webhook_pause_notices'))[0]!.n;

  beforeEach(async () => {
    await database().db.exec('DELETE FROM webhook_pause_notices;');
  });

  it('tells a pause once, a later pause again, and keeps a row only while an endpoint is paused', async () => {
    const first = paused('wh_a', '2026-11-25T09:00:00.000Z');
    const ids = (list: WebhookEndpoint[]) => list.map((endpoint) => endpoint.id);
    expect(ids(await store().record('loc-1', [first]))).toEqual(['wh_a']);
    expect(await store().record('loc-1', [first])).toEqual([]);
    // The same endpoint id at another location is another pause.
    expect(ids(await store().record('loc-2', [first]))).toEqual(['wh_a']);
    // Paused again at another time (resumed between two polls): told again.
    const again = paused('wh_a', '2026-11-28T09:00:00.000Z');
    expect(ids(await store().record('loc-1', [again, paused('wh_b', '2026-11-28T09:00:00.000Z')]))).toEqual([
      'wh_a',
      'wh_b',
    ]);
    expect(Number(await rows())).toBe(3);
    // Nothing paused at loc-1 any more: its rows go; loc-2's stay.
    expect(await store().record('loc-1', [])).toEqual([]);
    expect(Number(await rows())).toBe(1);
    expect(ids(await store().record('loc-1', [again]))).toEqual(['wh_a']);
  });

  it('never holds more rows than paused endpoints, however often the same ones are read', async () => {
    const endpoints = Array.from({ length: 10 }, (_, i) => paused(`wh_${i}`, '2026-11-25T09:00:00.000Z'));
    for (let round = 0; round < 50; round++) await store().record('loc-1', endpoints.slice(round % 10));
    expect(Number(await rows())).toBeLessThanOrEqual(10);
    await store().record('loc-1', endpoints.slice(0, 2));
    expect(Number(await rows())).toBe(2);
  });
});
