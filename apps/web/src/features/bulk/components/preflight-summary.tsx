import './bulk.css';
import { Alert, Checkbox, Stack, Text } from '@mantine/core';
import { DataTable } from '../../../components/data-table.tsx';
import type { Preflight } from '../model.ts';
import { numberFormat } from '../model.ts';

// What the check of a list found, before anything is sent: the counts, each row with errors (its
// line in the file and the send form's words), and the duplicates that will not be sent.

const ROWS_SHOWN = 100;

export function PreflightSummary({
  checked,
  capDays,
  recent,
}: {
  checked: Preflight;
  capDays: number;
  /** Contacts sent to within the cap window, once checked. */
  recent: number | null;
}) {
  return (
    <>
      <dl className="bulk-counts" aria-label="Checked rows">
        <div data-testid="preflight-valid">
          <dt>Ready to send</dt>
          <dd>{numberFormat(checked.valid.length)}</dd>
        </div>
        <div data-testid="preflight-errors">
          <dt>With errors</dt>
          <dd>{numberFormat(checked.errors.length)}</dd>
        </div>
        <div data-testid="preflight-duplicates">
          <dt>Duplicates in the file</dt>
          <dd>{numberFormat(checked.duplicates.length)}</dd>
        </div>
        <div data-testid="preflight-recent">
          <dt>Sent to in the last {capDays} days</dt>
          <dd>{recent === null ? '—' : numberFormat(recent)}</dd>
        </div>
      </dl>
      <Text size="sm" c="dimmed" data-testid="preflight-allowance">
        The month’s sending allowance: not known before sending — the review service does not say how much of
        it is left. If it runs out, the list pauses with the reason and goes on when resumed.
      </Text>

      {checked.errors.length > 0 && (
        <details open={checked.errors.length <= 10}>
          <summary>{numberFormat(checked.errors.length)} rows with errors will not be sent</summary>
          <DataTable label="Rows with errors" columns={['Line', 'Row', 'What to fix']}>
            {checked.errors.slice(0, ROWS_SHOWN).map((row) => (
              <tr key={row.line}>
                <td>{row.line}</td>
                <td>{row.cells}</td>
                <td>{row.messages.join(' ')}</td>
              </tr>
            ))}
          </DataTable>
        </details>
      )}
      {checked.duplicates.length > 0 && (
        <details>
          <summary>
            {numberFormat(checked.duplicates.length)} duplicate rows: each contact gets one request
          </summary>
          <ul>
            {checked.duplicates.slice(0, ROWS_SHOWN).map((row) => (
              <li key={row.line}>
                Line {row.line} repeats line {row.firstLine} ({row.contact})
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

/** The contacts sent a request within the cap window, and the choice to send to them anyway. */
export function RecentAlert({
  lines,
  capDays,
  include,
  onInclude,
}: {
  lines: Set<number>;
  capDays: number;
  include: boolean;
  onInclude(include: boolean): void;
}) {
  if (lines.size === 0) return null;
  return (
    <Alert color="yellow" title="Sent to recently">
      <Stack gap="xs">
        <Text size="sm">
          {numberFormat(lines.size)} contacts were sent a request in the last {capDays} days (lines{' '}
          {[...lines].slice(0, 20).join(', ')}
          {lines.size > 20 ? ', …' : ''}).
        </Text>
        <Checkbox
          label="Send to them again anyway"
          checked={include}
          onChange={(event) => onInclude(event.currentTarget.checked)}
        />
      </Stack>
    </Alert>
  );
}
