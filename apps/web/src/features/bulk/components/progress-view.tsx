import './bulk.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  type ButtonProps,
  Group,
  Paper,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import { SEND_OUTCOME_MEANINGS } from '@review-desk/shared/bff';
import { BULK_ROW_OUTCOMES, type BulkJob, type BulkRowOutcome, bulkPaths } from '@review-desk/shared/bulk';
import { type ReactNode, useState } from 'react';
import { DataTable } from '../../../components/data-table.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { StateBadge, type StateTone } from '../../../components/state-badge.tsx';
import { describeError } from '../../../lib/describe-error.ts';
import { countOf } from '../../../lib/format.ts';
import { inLocation } from '../../../lib/location.ts';
import { useBulkAction } from '../api/bulk-action.ts';
import { ROWS_PER_PAGE, useBulkRows, useBulkSend } from '../api/get-bulk-send.ts';
import { numberFormat } from '../model.ts';
import { waitingWords } from './daily-cap.tsx';

// A list send's progress, polled while it runs: counts per outcome, rate and time left, the
// reason when it stopped, the controls, and the rows' outcomes page by page, each outcome's
// definition a tap away: `sent` is not a delivery, and an `unknown` row may have gone out.

/** Each row outcome in words, its definition a tap away (one state, said once, not a disclaimer). */
const OUTCOMES: Record<BulkRowOutcome, { label: string; tone: StateTone; meaning: string }> = {
  pending: { label: 'Waiting', tone: 'gray', meaning: 'Not sent yet: its turn has not come.' },
  sent: { label: 'Sent', tone: 'green', meaning: SEND_OUTCOME_MEANINGS.sent },
  warning: { label: 'Sent with a warning', tone: 'yellow', meaning: SEND_OUTCOME_MEANINGS.warning },
  skipped: {
    label: 'Skipped',
    tone: 'gray',
    meaning: 'Not sent, on purpose: the contact was asked recently, or the list was cancelled first.',
  },
  refused: {
    label: 'Refused',
    tone: 'red',
    meaning: 'Not sent: the service refused this row (see Details).',
  },
  failed: { label: 'Failed', tone: 'red', meaning: SEND_OUTCOME_MEANINGS.failed },
  unknown: {
    label: 'Outcome unknown',
    tone: 'orange',
    meaning:
      'The connection was lost after the request left, so it may have been sent. It is not sent again unless you ask.',
  },
};

const outcomeBadge = (outcome: BulkRowOutcome) => <StateBadge {...OUTCOMES[outcome]} />;

const STATUS_WORDS: Record<BulkJob['status'], string> = {
  running: 'Sending',
  paused: 'Paused',
  done: 'Finished',
  cancelled: 'Cancelled',
};

function timeLeft(job: BulkJob): string | null {
  if (job.status !== 'running' || !job.ratePerMinute || job.counts.pending === 0) return null;
  const minutes = job.counts.pending / job.ratePerMinute;
  if (minutes < 1) return 'less than a minute left';
  if (minutes < 90) return `about ${Math.round(minutes)} minutes left`;
  return `about ${Math.round(minutes / 60)} hours left`;
}

// The actions that cannot be undone ask first: their first button opens the one that does it.
type Step = 'cancel' | 'retry-unknown';
type Asking = {
  confirming: Step | null;
  setConfirming: (step: Step | null) => void;
  run: (step: Step) => void;
};
const FIRST_BUTTON: Record<Step, { label: string; props: ButtonProps; confirmColor: string }> = {
  cancel: { label: 'Cancel…', props: { variant: 'subtle', color: 'red' }, confirmColor: 'red' },
  'retry-unknown': { label: 'Retry unknown rows…', props: { variant: 'default' }, confirmColor: 'orange' },
};

function AskFirst({ step, ask, children }: { step: Step; ask: Asking; children: ReactNode }) {
  const first = FIRST_BUTTON[step];
  if (ask.confirming !== step)
    return (
      <Button {...first.props} onClick={() => ask.setConfirming(step)}>
        {first.label}
      </Button>
    );
  const confirm = () => {
    ask.setConfirming(null);
    ask.run(step);
  };
  return (
    <Button color={first.confirmColor} onClick={confirm}>
      {children}
    </Button>
  );
}

export function ProgressView({ id }: { id: string }) {
  const job = useBulkSend(id);
  const action = useBulkAction(id);
  const [page, setPage] = useState(1);
  const [confirming, setConfirming] = useState<Step | null>(null);
  // The rows are read again whenever the job's counts change, its last change included: a
  // finished list never shows a row as waiting.
  const rows = useBulkRows(id, page, job.data ? Object.values(job.data.counts).join('.') : '');

  if (job.error) return <ErrorState error={job.error} onRetry={() => void job.refetch()} />;
  if (!job.data) return <Text c="dimmed">Loading the list send…</Text>;
  const { counts, status } = job.data;
  const settled = counts.total - counts.pending;
  const left = timeLeft(job.data);
  const pages = Math.max(1, Math.ceil((rows.data?.total ?? 0) / ROWS_PER_PAGE));
  const ask: Asking = { confirming, setConfirming, run: (step) => action.mutate(step) };

  return (
    <Stack gap="md" data-testid="bulk-progress">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          <Group justify="space-between">
            <Text fw={600}>
              {numberFormat(settled)} of {countOf(counts.total, 'row', 'rows')} done
            </Text>
            <Badge variant="light" data-testid="bulk-status">
              {STATUS_WORDS[status]}
            </Badge>
          </Group>
          <Progress
            value={counts.total === 0 ? 0 : (settled / counts.total) * 100}
            aria-label="Rows done"
            animated={status === 'running'}
          />
          <Text size="sm" c="dimmed">
            Started by {job.data.createdBy} on {new Date(job.data.createdAt).toLocaleString()}
            {job.data.ratePerMinute ? ` · ${job.data.ratePerMinute} rows a minute` : ''}
            {left && !job.data.waitingUntil ? ` · ${left}` : ''}
            {job.data.dailyCap ? ` · at most ${numberFormat(job.data.dailyCap)} a day` : ''}
          </Text>
          {waitingWords(job.data) && (
            <Alert color="blue" title="Waiting for tomorrow" role="status" data-testid="bulk-waiting">
              {waitingWords(job.data)}
            </Alert>
          )}
          {job.data.reason && (
            <Alert color="yellow" title="Paused" role="status">
              {job.data.reason}
            </Alert>
          )}
          <dl className="bulk-counts" aria-label="Rows by outcome">
            {BULK_ROW_OUTCOMES.map((outcome) => (
              <div key={outcome} data-testid={`count-${outcome}`}>
                <dt>{outcomeBadge(outcome)}</dt>
                <dd>{numberFormat(counts[outcome])}</dd>
              </div>
            ))}
          </dl>
          {action.error && (
            <Text c="var(--mantine-color-error)">
              {describeError(action.error).detail ?? describeError(action.error).meaning}
            </Text>
          )}
          <Group gap="sm">
            {status === 'running' && (
              <Button variant="default" loading={action.isPending} onClick={() => action.mutate('pause')}>
                Pause
              </Button>
            )}
            {status === 'paused' && (
              <Button loading={action.isPending} onClick={() => action.mutate('resume')}>
                Resume
              </Button>
            )}
            {(status === 'running' || status === 'paused') && (
              <AskFirst step="cancel" ask={ask}>
                Cancel the rows not sent yet
              </AskFirst>
            )}
            {counts.unknown > 0 && status !== 'cancelled' && (
              <AskFirst step="retry-unknown" ask={ask}>
                Send the {countOf(counts.unknown, 'unknown row', 'unknown rows')} again (they may get two)
              </AskFirst>
            )}
            <Anchor href={inLocation(bulkPaths.results(id))} download>
              Download results as CSV
            </Anchor>
          </Group>
        </Stack>
      </Paper>

      <DataTable
        label="Rows"
        busy={rows.isFetching}
        columns={['Row', 'Customer', 'Contact', 'Outcome', 'Details']}
      >
        {(rows.data?.rows ?? []).map((row) => (
          <tr key={row.index}>
            <td>{row.index + 1}</td>
            <td>{row.customerName ?? ''}</td>
            <td>{row.contact}</td>
            <td>{outcomeBadge(row.outcome)}</td>
            <td>{[row.detail, row.requestId].filter(Boolean).join(' · ')}</td>
          </tr>
        ))}
      </DataTable>
      {pages > 1 && (
        <Group gap="xs">
          <Button variant="default" size="xs" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous rows
          </Button>
          <Text size="sm">
            Page {page} of {pages}
          </Text>
          <Button variant="default" size="xs" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next rows
          </Button>
        </Group>
      )}
    </Stack>
  );
}
