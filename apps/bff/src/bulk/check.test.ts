import { bulkSendRequestSchema, validationFailure } from '@review-desk/shared';
import { describe, expect, it } from 'vitest';
import { checkBulkList } from './check.ts';

// A long list is checked a slice at a time (check.ts): other work — timers, other requests — runs
// between the slices, and the answer is the one the whole list's schema gives.

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    customerName: `Customer ${i} ${'x'.repeat(120)}`,
    customerPhone: `+1415555${String(i % 10_000).padStart(4, '0')}`,
  }));

describe('checking a list', () => {
  it('gives way to other work while it checks 10,000 rows, and keeps every row in order', async () => {
    let turns = 0;
    let checking = true;
    const other = () => {
      turns++;
      if (checking) setImmediate(other);
    };
    setImmediate(other);
    const started = turns;
    const list = await checkBulkList({ channel: 'sms', rows: rows(10_000) });
    checking = false;
    expect(list.rows).toHaveLength(10_000);
    expect(list.rows[9_999]?.customerPhone).toBe('+14155559999');
    // Without slices nothing else would run until the whole list was checked: one turn at most.
    expect(turns - started).toBeGreaterThan(1);
  });

  it('refuses bad rows with the fields and words the whole list’s schema gives', async () => {
    const body = {
      channel: 'sms',
      rows: [
        { customerName: 'Ann', customerPhone: '+14155550100' },
        { customerName: 'No phone' },
        'not a row',
      ],
    };
    const whole = bulkSendRequestSchema.safeParse(body);
    expect(whole.success).toBe(false);
    const refusal = await checkBulkList(body).then(
      () => null,
      (error: { code: string; message: string; fields?: Record<string, string> }) => error,
    );
    expect(refusal?.code).toBe('validation_failed');
    const expected = validationFailure(whole.error!);
    expect({ error: refusal?.message, fields: refusal?.fields }).toEqual({
      error: expected.error,
      fields: expected.fields,
    });
    expect(Object.keys(refusal?.fields ?? {})).toEqual(['rows.1.customerPhone', 'rows.2']);
  });
});
