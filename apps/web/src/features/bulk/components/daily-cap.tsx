import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import { Checkbox, Group, Text, TextInput } from '@mantine/core';
import { BULK_DAILY_CAP_MAX, describeFinish, formatDay, localDate } from '@review-desk/shared/bulk-days';
import { useState } from 'react';

// "At most N a day" (docs/bulk.md): review sites filter reviews that arrive in a sudden burst, so
// a list can be spread over days. The finishing date is counted as the server will count it: on
// its time zone's wall clock (bulk-days.ts), today being the first day.

export const DAILY_CAP_SUGGESTED = 50;

export function DailyCapField({
  rows,
  value,
  onChange,
  timeZone,
}: {
  rows: number;
  value: number | null;
  onChange(value: number | null): void;
  /** The server's zone for days; null while it is not known yet. */
  timeZone: string | null;
}) {
  const [text, setText] = useState(String(value ?? DAILY_CAP_SUGGESTED));
  const parsed = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  const valid = parsed >= 1 && parsed <= BULK_DAILY_CAP_MAX;
  const zone = timeZone ?? 'UTC';
  return (
    <Group gap="md" align="flex-end">
      <Checkbox
        label="Spread over days: review sites may filter reviews that arrive in a sudden burst"
        checked={value !== null}
        onChange={(event) => onChange(event.currentTarget.checked && valid ? parsed : null)}
      />
      {value !== null && (
        <TextInput
          label="At most this many a day"
          inputMode="numeric"
          w={160}
          value={text}
          error={valid ? undefined : `A number from 1 to ${BULK_DAILY_CAP_MAX.toLocaleString('en')}`}
          onChange={(event) => {
            const next = event.currentTarget.value;
            setText(next);
            const n = /^\d+$/.test(next.trim()) ? Number(next.trim()) : Number.NaN;
            if (n >= 1 && n <= BULK_DAILY_CAP_MAX) onChange(n);
          }}
        />
      )}
      {value !== null && rows > 0 && (
        <Text size="sm" data-testid="bulk-finishes">
          {describeFinish(rows, value, Date.now(), zone)}
          {timeZone ? ` (days on ${timeZone} time)` : ''}
        </Text>
      )}
    </Group>
  );
}

/** "Today's 50 are sent: the next go out on Thu 3 Dec" for a job waiting for its next day. */
export function waitingWords(job: {
  dailyCap: number | null;
  waitingUntil: string | null;
  timeZone: string;
}) {
  if (job.dailyCap === null || job.waitingUntil === null) return null;
  const at = Date.parse(job.waitingUntil);
  const day = formatDay(localDate(at, job.timeZone), Date.now(), job.timeZone);
  return `Today’s ${job.dailyCap.toLocaleString('en')} are sent: the next go out on ${day} (at most ${job.dailyCap.toLocaleString('en')} a day).`;
}
