import type { Queryable } from '../db/types.ts';
import { RATE_PERIOD_MS, type RateStore } from './gcra.ts';

// GCRA's times in the database, for processes that count together (every BFF worker and replica;
// the service's replicas on PostgreSQL): N processes each counting in memory would let a caller
// through N times over. One UPSERT per take decides and records, by gcra.ts' rules written in SQL:
// the stored time, where the calls start from, how many fit. The table is a component's own
// (`<key> TEXT PRIMARY KEY, tat, allowed, granted, at`); `clock: 'database'` times each take by the
// database's clock_timestamp() on PostgreSQL, so replicas whose clocks differ count on one clock.

// $1 key, $2 now (ms; NULL: the database's clock), $3 interval, $4 period (whole ms), $5 calls.
const NOW = {
  postgres:
    'COALESCE(CAST($2 AS BIGINT), CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS BIGINT))',
  // SQLite (one machine): always the caller's clock.
  sqlite: 'CAST($2 AS BIGINT)',
} as const;
const INTERVAL = 'CAST($3 AS BIGINT)';
const PERIOD = 'CAST($4 AS BIGINT)';
const CALLS = 'CAST($5 AS BIGINT)';

/** gcra.ts fitting(): how many calls fit from `base` on at `now` (both engines' integer division truncates). */
const fitting = (base: string, now: string) => {
  const room = `(${PERIOD} + ${now} - ${base}) / ${INTERVAL}`;
  return `(CASE WHEN ${room} <= 0 THEN 0 WHEN ${room} >= ${CALLS} THEN ${CALLS} ELSE ${room} END)`;
};

function takeSql(table: string, key: string, dialect: Queryable['dialect']): string {
  // Inside DO UPDATE the take's time is excluded.at; startOf() is BASE.
  const now = 'excluded.at';
  const base = `(CASE WHEN ${table}.tat > ${now} AND ${table}.tat <= ${now} + 2 * ${PERIOD} THEN ${table}.tat ELSE ${now} END)`;
  const granted = fitting(base, now);
  const first = fitting('t.now', 't.now');
  return `INSERT INTO ${table} (${key}, tat, allowed, granted, at)
    SELECT $1, t.now + ${first} * ${INTERVAL}, CASE WHEN ${first} = ${CALLS} THEN 1 ELSE 0 END, ${first}, t.now
    FROM (SELECT ${NOW[dialect]} AS now) t WHERE true
    ON CONFLICT (${key}) DO UPDATE SET
      tat = CASE WHEN ${granted} > 0 THEN ${base} + ${granted} * ${INTERVAL} ELSE ${table}.tat END,
      allowed = CASE WHEN ${granted} = ${CALLS} THEN 1 ELSE 0 END,
      granted = ${granted},
      at = excluded.at
    RETURNING tat, granted, at`;
}

export function sqlRateStore(db: Queryable, options: { table: string; key: string }): RateStore {
  const take = db.prepare(takeSql(options.table, options.key, db.dialect));
  const sweep = db.prepare(
    `DELETE FROM ${options.table} WHERE tat <= ${NOW[db.dialect].replaceAll('$2', '$1')}`,
  );
  let sweptAt = 0;
  return {
    async take(key, now, interval, calls) {
      const clock = now ?? Date.now();
      if (clock - sweptAt >= RATE_PERIOD_MS) {
        sweptAt = clock;
        await sweep.run(now).catch(() => {});
      }
      const row = await take.get<{ tat: number | string; granted: number | string; at: number | string }>(
        key,
        now,
        interval,
        RATE_PERIOD_MS,
        calls,
      );
      if (!row) throw new Error(`the rate in ${options.table} was not counted`);
      return { granted: Number(row.granted), tat: Number(row.tat), at: Number(row.at) };
    },
    async sweep(now) {
      await sweep.run(now);
    },
  };
}
