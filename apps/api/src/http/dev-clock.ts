import { clockCommand, type FakeClock } from '@review-desk/server/clock';
import { AppError } from '@review-desk/server/errors';
import { ok } from '@review-desk/shared';
import express, { Router } from 'express';
import { methodNotAllowed } from './index.ts';

// DEV_CLOCK=1 only (never in production): GET /dev/clock reads the service's clock, POST moves it
// (`{"set": "2030-01-01T23:00:00Z"}`, `{"set": <ms>}` or `{"advanceMs": 3600000}`). Scheduled
// sends and reminders wait on this clock, so a system test or a demo can see sending hours at
// work. POST /dev/jobs runs this process's due jobs, and what they lead to, until none is left,
// and answers how many ran: a test waits on that instead of on time.

export const DEV_CLOCK_PATH = '/dev/clock';
export const DEV_JOBS_PATH = '/dev/jobs';

export function devClockRoutes(clock: FakeClock, jobs: { drain(): Promise<number> }): Router {
  const router = Router();
  const answer = (body: unknown) => {
    try {
      return clockCommand(clock, body);
    } catch (error) {
      if (error instanceof RangeError) throw new AppError('validation_failed', error.message);
      throw error;
    }
  };
  router.get(DEV_CLOCK_PATH, (_req, res) => {
    res.json(ok(answer({})));
  });
  router.post(DEV_CLOCK_PATH, express.json({ limit: '1kb' }), (req, res) => {
    res.json(ok(answer(req.body)));
  });
  router.all(DEV_CLOCK_PATH, methodNotAllowed(['GET', 'POST']));
  router.post(DEV_JOBS_PATH, async (_req, res) => {
    res.json(ok({ ran: await jobs.drain() }));
  });
  router.all(DEV_JOBS_PATH, methodNotAllowed(['POST']));
  return router;
}
