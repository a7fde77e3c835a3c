import { type Clock, systemClock } from '../clock.ts';
import { type Database, type DbLogger, silentLogger } from '../db/types.ts';
import { type ClaimedJob, type JobOutcome, type JobStore, jobStore } from './store.ts';

// Runs the jobs of the kinds it has handlers for: polls at an interval (and at once when woken,
// or when a fake clock moves), claims at most `concurrency` at a time, renews each lease while
// its handler runs, and records the outcome. See jobs.ts for the table and the lease rules.

export type JobContext = {
  job: ClaimedJob;
  /** Aborted when the lease is lost (another process took the job over) or the runner stops. */
  signal: AbortSignal;
};

/**
 * Does the work. Resolving records the job done; resolving `{ continueAt }` runs it again then
 * (paced work: the next batch), with `payload` replacing the stored one when given; throwing
 * runs it again after a back-off until maxAttempts, then records it failed.
 */
export type JobContinuation = { continueAt: number; payload?: unknown };
export type JobHandler = (
  context: JobContext,
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing (`async () => {}`) resolves to void
) => Promise<JobContinuation | undefined | void>;

export type JobRunnerOptions = {
  db: Database;
  /** Who holds the leases: the process's instance id (instances.ts). */
  owner: string;
  handlers: Readonly<Record<string, JobHandler>>;
  /** The service's clock, for run times (default: the system clock). */
  clock?: Clock;
  /** Jobs running at once in this process (default 4). */
  concurrency?: number;
  /** How often to look for due jobs (default 1 s). */
  pollMs?: number;
  /** How long a claim holds without renewal (default 30 s); renewed every third of it. */
  leaseMs?: number;
  /** Delay before attempt n+1 after attempt n failed (default 2^n s, at most 5 min). */
  retryDelayMs?: (attempt: number) => number;
  logger?: DbLogger;
};

const defaultRetryDelay = (attempt: number) => Math.min(300_000, 1_000 * 2 ** attempt);

export class JobRunner {
  readonly #store: JobStore;
  readonly #options: Required<Omit<JobRunnerOptions, 'db'>>;
  readonly #kinds: string[];
  readonly #active = new Set<Promise<void>>();
  readonly #controllers = new Set<AbortController>();
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  #tick: Promise<void> | undefined;
  #again = false;
  #wakeScheduled = false;
  #stopped = true;
  #ran = 0;

  constructor(options: JobRunnerOptions) {
    this.#options = {
      clock: systemClock,
      concurrency: 4,
      pollMs: 1_000,
      leaseMs: 30_000,
      retryDelayMs: defaultRetryDelay,
      logger: silentLogger,
      ...options,
    };
    this.#kinds = Object.keys(options.handlers);
    this.#store = jobStore(options.db, this.#options.clock);
  }

  /** Jobs whose handler finished (any outcome) since the runner was made. */
  get ran(): number {
    return this.#ran;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#timer = setInterval(() => this.wake(), this.#options.pollMs);
    this.#timer.unref();
    this.#unsubscribe = this.#options.clock.onChange?.(() => this.wake());
    this.wake();
  }

  /** Looks for due jobs now (after enqueuing one, or when the clock moved). */
  wake(): void {
    if (this.#stopped || this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    setImmediate(() => {
      this.#wakeScheduled = false;
      if (!this.#stopped) void this.#claimLoop();
    });
  }

  /**
   * Stops claiming and waits for running handlers, at most `timeoutMs` (default 10 s); then
   * aborts those still running, whose leases another process will take over once they run out.
   */
  async stop(options: { timeoutMs?: number } = {}): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#unsubscribe?.();
    await this.#tick;
    const all = Promise.allSettled([...this.#active]);
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(resolve, options.timeoutMs ?? 10_000, 'timeout').unref(),
    );
    if ((await Promise.race([all, timeout])) === 'timeout') {
      for (const controller of this.#controllers) controller.abort(new Error('The job runner is stopping'));
    }
  }

  /**
   * Runs every job that is due now, and what those lead to, until none is left; for tests and
   * the CLI (the runner need not be started). Returns how many handlers ran.
   */
  async drain(): Promise<number> {
    const before = this.#ran;
    for (;;) {
      await this.#claimLoop(true);
      if (this.#active.size === 0) break;
      await Promise.allSettled([...this.#active]);
    }
    return this.#ran - before;
  }

  /**
   * Claims while slots are free and jobs come back. A call while a loop runs asks it to go round
   * once more and shares its promise; the loop lets go of `#tick` synchronously after its last
   * look, so no call can fall between that look and the next loop.
   */
  #claimLoop(force = false): Promise<void> {
    if (this.#tick) {
      this.#again = true;
      return this.#tick;
    }
    const done = Promise.withResolvers<void>();
    this.#tick = done.promise;
    void this.#claimWhileFree(force).then(done.resolve);
    return done.promise;
  }

  async #claimWhileFree(force: boolean): Promise<void> {
    try {
      do {
        this.#again = false;
        const free = this.#options.concurrency - this.#active.size;
        if (free <= 0 || (this.#stopped && !force)) break;
        const jobs = await this.#store.claim(this.#options.owner, this.#kinds, free, {
          now: Date.now(),
          ms: this.#options.leaseMs,
        });
        for (const job of jobs) this.#launch(job);
        if (jobs.length === free) this.#again = true;
      } while (this.#again);
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'Claiming jobs failed; trying again at the next poll');
    } finally {
      this.#tick = undefined;
    }
  }

  #launch(job: ClaimedJob): void {
    const run = this.#run(job).finally(() => {
      this.#active.delete(run);
      this.#ran++;
      this.wake();
    });
    this.#active.add(run);
  }

  async #run(job: ClaimedJob): Promise<void> {
    const { owner, leaseMs, logger, clock } = this.#options;
    const controller = new AbortController();
    this.#controllers.add(controller);
    const renewal = setInterval(() => {
      this.#store.renew(job.id, owner, Date.now() + leaseMs).then(
        (held) => {
          if (!held) controller.abort(new Error('The job was taken over by another process'));
        },
        (error) => logger.warn({ err: error, job: job.id }, 'Renewing a job lease failed'),
      );
    }, leaseMs / 3);
    renewal.unref();
    let outcome: JobOutcome;
    try {
      if (job.reclaimed && job.attempt > job.maxAttempts) {
        // Taken over again and again: the work stops its process each time. Give up on it.
        outcome = { state: 'failed', error: `Interrupted ${job.attempt - 1} times; not run again` };
      } else {
        const handler = this.#options.handlers[job.kind] as JobHandler;
        const result = await handler({ job, signal: controller.signal });
        outcome = result
          ? { state: 'continue', runAt: result.continueAt, payload: result.payload }
          : { state: 'done' };
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.warn({ err: error, job: job.id, kind: job.kind, attempt: job.attempt }, 'A job failed');
      outcome =
        job.attempt < job.maxAttempts
          ? { state: 'retry', runAt: clock.now() + this.#options.retryDelayMs(job.attempt), error: message }
          : { state: 'failed', error: message };
    } finally {
      clearInterval(renewal);
      this.#controllers.delete(controller);
    }
    try {
      const recorded = await this.#store.finish(job.id, owner, outcome);
      if (!recorded)
        logger.warn({ job: job.id, kind: job.kind }, 'A job lost its lease before its outcome was recorded');
    } catch (error) {
      logger.warn({ err: error, job: job.id }, "Recording a job's outcome failed; its lease will run out");
    }
  }
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  return new JobRunner(options);
}
