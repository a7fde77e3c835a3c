import { SEND_OUTCOME_MEANINGS } from '@review-desk/shared/bff';
import { formatDay, localDate } from '@review-desk/shared/bulk-days';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage } from '../../../test/render.tsx';
import { ProgressView } from './progress-view.tsx';

// A list spread over days, between two days: it says that today's share is out and when the
// next rows go, on the server's calendar.

const WAITING_UNTIL = '2026-12-03T05:00:00.000Z';
const JOB = {
  id: 'job-2',
  status: 'running',
  reason: null,
  channel: 'email',
  skipRecent: false,
  location: 'main',
  counts: { total: 150, pending: 100, sent: 50, warning: 0, skipped: 0, refused: 0, failed: 0, unknown: 0 },
  createdBy: 'owner@example.com',
  createdAt: '2026-12-02T14:00:00.000Z',
  finishedAt: null,
  ratePerMinute: null,
  dailyCap: 50,
  timeZone: 'America/New_York',
  waitingUntil: WAITING_UNTIL,
};

afterEach(() => vi.unstubAllGlobals());

describe('a list waiting for its next day', () => {
  it('says today’s share is sent and the day the next rows go', async () => {
    stubFetch(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/bff/bulk-sends/job-2') return ok(JOB);
      if (path === '/bff/bulk-sends/job-2/rows') return ok({ page: 1, limit: 50, total: 0, rows: [] });
      return fail('not_found');
    });
    renderPage(<ProgressView id="job-2" />);
    const waiting = await screen.findByTestId('bulk-waiting');
    const day = formatDay(
      localDate(Date.parse(WAITING_UNTIL), 'America/New_York'),
      Date.now(),
      'America/New_York',
    );
    expect(day).toMatch(/^Thu 3 Dec/);
    expect(waiting).toHaveTextContent(`Today’s 50 are sent: the next go out on ${day} (at most 50 a day).`);
    expect(screen.getByText(/at most 50 a day$/)).toBeInTheDocument();
  });
});

describe('a list that finishes while it is watched', () => {
  it('reads its rows again at the end: no row is left showing Waiting', async () => {
    const row = (outcome: string) => ({
      index: 0,
      customerName: 'Ann',
      contact: 'a•••@example.com',
      outcome,
      code: null,
      detail: null,
      requestId: outcome === 'sent' ? 'req_1' : null,
      finishedAt: null,
    });
    let done = false;
    /** The row reads as settled only once the job has been read as finished. */
    let finishedRead = false;
    stubFetch(async (request) => {
      const path = new URL(request.url).pathname;
      const counts = { ...JOB.counts, total: 1, pending: done ? 0 : 1, sent: done ? 1 : 0 };
      if (path === '/bff/bulk-sends/job-2') {
        finishedRead ||= done;
        return ok({ ...JOB, status: done ? 'done' : 'running', counts, dailyCap: null, waitingUntil: null });
      }
      if (path === '/bff/bulk-sends/job-2/rows')
        return ok({ page: 1, limit: 50, total: 1, rows: [row(finishedRead ? 'sent' : 'pending')] });
      return fail('not_found');
    });
    renderPage(<ProgressView id="job-2" />);
    const rows = await screen.findByRole('table', { name: 'Rows' });
    expect(await within(rows).findByText('Waiting')).toBeInTheDocument();
    // The last row settles and the list finishes between two reads of the rows.
    done = true;
    expect(await screen.findByText('Finished', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(await within(rows).findByText('Sent')).toBeInTheDocument();
    expect(within(rows).queryByText('Waiting')).not.toBeInTheDocument();
  });
});

describe('what an outcome means', () => {
  it('is one tap away on its count, not a line of small print under every list', async () => {
    stubFetch(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/bff/bulk-sends/job-2') return ok({ ...JOB, dailyCap: null, waitingUntil: null });
      if (path === '/bff/bulk-sends/job-2/rows') return ok({ page: 1, limit: 50, total: 0, rows: [] });
      return fail('not_found');
    });
    renderPage(<ProgressView id="job-2" />);
    const sent = await screen.findByTestId('count-sent');
    expect(screen.queryByText(/not a delivery receipt/)).not.toBeInTheDocument();
    await userEvent.setup().click(within(sent).getByRole('button', { name: 'Sent' }));
    expect(sent).toHaveTextContent(SEND_OUTCOME_MEANINGS.sent);
  });
});
