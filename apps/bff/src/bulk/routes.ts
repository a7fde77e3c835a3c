import { randomUUID } from 'node:crypto';
import { isoTime } from '@review-desk/server/db/rows';
import { AppError } from '@review-desk/server/errors';
import {
  BFF_PATHS,
  BULK_BODY_LIMIT_BYTES,
  type BulkAction,
  type BulkJob,
  bulkRowsQuerySchema,
  ok,
  queryRecord,
} from '@review-desk/shared';
import { dayStart, nextDayStart } from '@review-desk/shared/bulk-days';
import { csvCell } from '@review-desk/shared/csv';
import { type Request, Router } from 'express';
import type { Logger } from 'pino';
import type { RouteGates } from '../gates.ts';
import { readJsonBody } from '../http/body.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { named } from '../http/named.ts';
import { maskContact } from '../journal/contact.ts';
import { checkBulkList, inSlices } from './check.ts';
import { tooManyOfMine } from './limits.ts';
import type { BulkModule } from './open.ts';
import type { BulkJobRecord, BulkStore, NewBulkJob } from './store.ts';

// The list sends' interface (docs/bulk.md), for the dashboard and for scripts:
//   POST /bff/bulk-sends                      store the job and its rows, answer 202 at once
//   GET  /bff/bulk-sends                      the location's jobs, newest first
//   GET  /bff/bulk-sends/:id                  status, reason, counts per outcome, rate
//   GET  /bff/bulk-sends/:id/rows             the rows' outcomes, paged
//   GET  /bff/bulk-sends/:id/results.csv      every row's outcome (formula-safe cells)
//   POST /bff/bulk-sends/:id/pause|resume|cancel|retry-unknown
// A job belongs to the location it was started in: asked for at another, it is not found.

const ACTIONS: readonly BulkAction[] = ['pause', 'resume', 'cancel', 'retry-unknown'];

/** When a running job that has sent today's cap goes on: the next day's start; else null. */
async function waitingUntil(store: BulkStore, job: BulkJobRecord): Promise<string | null> {
  if (job.status !== 'running' || job.dailyCap === null) return null;
  const now = store.now();
  const sent = await store.sentSince(job.id, dayStart(now, job.timeZone));
  return sent >= job.dailyCap ? new Date(nextDayStart(now, job.timeZone)).toISOString() : null;
}

/** A job as the dashboard reads it, in the location (by slug) it belongs to. */
export async function jobView(store: BulkStore, job: BulkJobRecord, locationSlug: string): Promise<BulkJob> {
  // Read before the counts: rows only ever finish, so counts read after it hold every row that
  // made today's cap — never "waiting for tomorrow" beside fewer rows sent than the cap.
  const waiting = await waitingUntil(store, job);
  return {
    id: job.id,
    status: job.status,
    reason: job.reason,
    channel: job.channel,
    skipRecent: job.skipRecent,
    location: locationSlug,
    counts: await store.counts(job.id, job.total),
    createdBy: job.createdByEmail,
    createdAt: isoTime(job.createdAt),
    finishedAt: isoTime(job.finishedAt),
    ratePerMinute: job.status === 'running' ? await store.ratePerMinute(job.id) : null,
    dailyCap: job.dailyCap,
    timeZone: job.timeZone,
    waitingUntil: waiting,
  };
}

export function bulkRoutes(deps: { bulk: BulkModule; gates: RouteGates; logger: Logger }): Router {
  const { bulk } = deps;
  const router = Router();
  const base = BFF_PATHS.bulkSends;

  async function found(req: Request): Promise<{ store: BulkStore; job: BulkJobRecord }> {
    const store = await bulk.store();
    const job = await store.get(String(req.params.id));
    if (!job || job.location !== req.ctx.location?.id) throw new AppError('bulk_not_found');
    return { store, job };
  }

  /** Lists being read and checked in this process, per user: no more than a user may have in progress. */
  const checking = new Map<string, number>();

  router.post(base, named('bulk-sends'), gateway(deps.gates['bulk.write']), async (req, res) => {
    const user = req.ctx.session!.user;
    // A flood of lists from one user costs at most their limit's worth of reading and checking;
    // the rest are refused before their bodies are read (the stored count decides in bulk.create).
    const before = checking.get(user.id) ?? 0;
    if (before >= bulk.limits.userLists) throw tooManyOfMine(before);
    checking.set(user.id, before + 1);
    let list: Awaited<ReturnType<typeof checkBulkList>>;
    const rows: NewBulkJob['rows'] = [];
    try {
      const stored = await (await bulk.store()).inProgressOf(user.id);
      if (stored + before >= bulk.limits.userLists) throw tooManyOfMine(stored + before);
      // Checked (and stored) a slice at a time: a long list never holds other requests up (check.ts).
      list = await checkBulkList(await readJsonBody(req, BULK_BODY_LIMIT_BYTES));
      await inSlices(list.rows, (send) => {
        rows.push({
          send,
          contactMasked: maskContact({ phone: send.customerPhone, email: send.customerEmail }),
        });
      });
    } finally {
      const left = (checking.get(user.id) ?? 1) - 1;
      if (left > 0) checking.set(user.id, left);
      else checking.delete(user.id);
    }
    const job = await bulk.create({
      id: randomUUID(),
      location: req.ctx.location!.id,
      channel: list.channel,
      skipRecent: list.skipRecent,
      dailyCap: list.dailyCap,
      timeZone: bulk.timeZone,
      createdBy: user.id,
      createdByEmail: user.email,
      rows,
    });
    deps.logger.info(
      { reqId: req.ctx.id, user: user.id, bulk: job.id, rows: job.total, location: job.location },
      'list send started',
    );
    res.status(202).json(ok({ id: job.id }));
  });

  router.get(base, named('bulk-sends'), gateway(deps.gates['bulk.read']), async (req, res) => {
    const store = await bulk.store();
    const jobs = await store.list(req.ctx.location!.id);
    res.json(
      ok({
        jobs: await Promise.all(jobs.map((job) => jobView(store, job, req.ctx.location!.slug))),
        timeZone: bulk.timeZone,
      }),
    );
  });
  router.all(base, methodNotAllowed('GET', 'POST'));

  router.get(`${base}/:id`, named('bulk-send'), gateway(deps.gates['bulk.read']), async (req, res) => {
    const { store, job } = await found(req);
    res.json(ok(await jobView(store, job, req.ctx.location!.slug)));
  });

  router.get(`${base}/:id/rows`, named('bulk-send'), gateway(deps.gates['bulk.read']), async (req, res) => {
    const q = req.url.indexOf('?');
    const query = bulkRowsQuerySchema.safeParse(queryRecord(q === -1 ? '' : req.url.slice(q + 1)));
    if (!query.success) throw AppError.validation(query.error);
    const { store, job } = await found(req);
    const { total, rows } = await store.rows(job.id, query.data.page, query.data.limit);
    res.json(ok({ page: query.data.page, limit: query.data.limit, total, rows }));
  });

  router.get(
    `${base}/:id/results.csv`,
    named('bulk-send'),
    gateway(deps.gates['bulk.read']),
    async (req, res) => {
      const { store, job } = await found(req);
      const lines = ['row,customer_name,contact,outcome,code,detail,request_id,finished_at'];
      const quote = (value: unknown) => {
        const cell = String(csvCell(value));
        return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
      };
      for (let page = 1; ; page++) {
        const { rows } = await store.rows(job.id, page, 1_000);
        for (const r of rows)
          lines.push(
            [r.index + 1, r.customerName, r.contact, r.outcome, r.code, r.detail, r.requestId, r.finishedAt]
              .map(quote)
              .join(','),
          );
        if (rows.length < 1_000) break;
      }
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('content-disposition', `attachment; filename="list-send-${job.id.slice(0, 8)}.csv"`);
      res.setHeader('cache-control', 'no-store');
      res.send(`${lines.join('\r\n')}\r\n`);
    },
  );

  for (const action of ACTIONS) {
    router.post(
      `${base}/:id/${action}`,
      named('bulk-send'),
      gateway(deps.gates['bulk.control']),
      async (req, res) => {
        const { store, job } = await found(req);
        const user = req.ctx.session!.user;
        // Staff control the jobs they started; owners and managers any job.
        if (user.role === 'staff' && job.createdBy !== user.id)
          throw new AppError(
            'role_forbidden',
            'Staff may pause, resume or cancel only the list sends they started.',
          );
        let changed: boolean;
        if (action === 'pause') changed = await store.pause(job.id, null);
        else if (action === 'resume') changed = await bulk.resume(job.id);
        else if (action === 'cancel') changed = await store.cancel(job.id);
        else changed = (await bulk.retryUnknown(job.id)) > 0;
        if (!changed)
          throw new AppError(
            'bulk_state_conflict',
            action === 'retry-unknown'
              ? 'No row of this list send has an unknown outcome.'
              : `This list send is ${job.status}: it cannot ${action === 'resume' ? 'be resumed' : `be ${action === 'pause' ? 'paused' : 'cancelled'}`}.`,
          );
        deps.logger.info({ reqId: req.ctx.id, user: user.id, bulk: job.id, action }, 'list send changed');
        const after = await store.get(job.id);
        res.json(ok(await jobView(store, after ?? job, req.ctx.location!.slug)));
      },
    );
  }
  return router;
}
