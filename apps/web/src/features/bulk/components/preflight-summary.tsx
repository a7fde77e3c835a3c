import './bulk.css';
import '@mantine/core/styles/List.layer.css';
import { Alert, List, Text } from '@mantine/core';
import { DataTable } from '../../../components/data-table.tsx';
import { countOf, formatDate } from '../../../lib/format.ts';
import type { Preflight } from '../model.ts';
import { numberFormat } from '../model.ts';

// What the check of a list found, before anything is sent: the counts, each row with errors (its
// line in the file and the send form's words), and the duplicates that will not be sent.

const ROWS_SHOWN = 100;
const RECENT_SHOWN = 20;

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
          <summary>
            {countOf(checked.errors.length, 'row with errors is', 'rows with errors are')} not sent
          </summary>
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
            {countOf(checked.duplicates.length, 'duplicate row', 'duplicate rows')}: each contact gets one
            request
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

/**
 * The contacts sent a request within the cap window (`lines`: each line, with when its contact can
 * be asked again, epoch ms). The service refuses a second request inside it, so none is offered:
 * they are skipped, listed as skipped in the list's results, and each line says when to ask again.
 */
export function RecentAlert({ lines, capDays }: { lines: ReadonlyMap<number, number>; capDays: number }) {
  if (lines.size === 0) return null;
  const shown = [...lines].sort(([a], [b]) => a - b).slice(0, RECENT_SHOWN);
  return (
    <Alert color="yellow" title="Asked recently" data-testid="preflight-recent-alert">
      <Text size="sm">
        {countOf(lines.size, 'contact was', 'contacts were')} sent a request in the last {capDays} days. The
        review service takes one request per customer every {capDays} days, so{' '}
        {lines.size === 1 ? 'it is' : 'they are'} skipped and listed as skipped in the results.
      </Text>
      <List size="sm" mt="xs">
        {shown.map(([line, at]) => (
          <List.Item key={line}>
            Line {line}: you can ask again on{' '}
            <strong data-testid="ask-again">{formatDate(new Date(at).toISOString())}</strong>
          </List.Item>
        ))}
      </List>
      {lines.size > shown.length && (
        <Text size="sm">…and {numberFormat(lines.size - shown.length)} more lines.</Text>
      )}
    </Alert>
  );
}
