import type { CronSettings } from '../config/schema-cron.js';
import { errorMessage } from '../errors.js';
import type { CronJob, CronJobStore, CronRun } from './job-store.js';
import { executeJob, type JobRunner, type RunDeps } from './run-job.js';
import { nextRunAfter } from './schedule.js';
import type { Deliverer, TargetKind } from './targets.js';
import { TickerLock, type LockResult } from './ticker-lock.js';

export interface TickerOptions {
  home: string;
  store: CronJobStore;
  runner: JobRunner;
  deliverers: ReadonlyMap<TargetKind, Deliverer>;
  settings: CronSettings;
  /** The clock the schedule is read by (tests inject one). Timers still wait in real time. */
  now?: () => number;
  /** The longest sleep between wakes, so jobs created by another process are seen (default 30 s). */
  pollMs?: number;
  /** Without it (tests with an injected clock) `start` only takes the lock and `tick` is called by hand. */
  autoTick?: boolean;
  /** Where the ticker says what it did and what went wrong (a job row that does not read, a lost lock). */
  log?: (level: 'info' | 'warning' | 'error', message: string) => void;
  /** Heartbeat age after which another process's lock is taken over (default 5 min). */
  lockStaleMs?: number;
}

export type TickerState = { owner: true; running: string[] } | { owner: false; reason: string };

/**
 * Runs due jobs for one HEARTH_HOME. Only the ticker holding `cron.lock` runs anything; a second one stays idle,
 * says why, and takes over when the owner's lock goes stale. On each wake it runs jobs whose slot has come
 * (late slots within `cron.catch_up_minutes` run once; later ones are recorded as missed) and retries that are
 * due, then sleeps until the next slot (at most `pollMs`).
 */
export class CronTicker {
  private readonly lock: TickerLock;
  private readonly now: () => number;
  private readonly deps: RunDeps;
  private readonly running = new Map<string, Promise<CronRun>>();
  private readonly controller = new AbortController();
  private readonly reportedBad = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private idleReason = 'the ticker has not started';
  private stopped = false;

  constructor(private readonly options: TickerOptions) {
    this.lock = new TickerLock(options.home, options.lockStaleMs);
    this.now = options.now ?? Date.now;
    this.deps = {
      store: options.store,
      runner: options.runner,
      deliverers: options.deliverers,
      now: this.now,
      maxAttempts: options.settings.max_attempts,
      retryBackoffMs: options.settings.retry_backoff_s * 1000,
      runTimeoutMs: options.settings.run_timeout_minutes * 60_000,
    };
  }

  /** Takes the lock (or stays idle, saying why) and, with autoTick, starts waking for due jobs. */
  start(): TickerState {
    this.claim();
    if (this.options.autoTick !== false) this.schedule(0);
    return this.state();
  }

  state(): TickerState {
    return this.lock.isHeld ? { owner: true, running: [...this.running.keys()] } : { owner: false, reason: this.idleReason };
  }

  /**
   * One wake: runs what is due now. Resolves when the runs it started have finished, with those runs (missed
   * slots included). An idle ticker tries the lock first and does nothing without it.
   */
  async tick(): Promise<CronRun[]> {
    const { missed, started } = this.startDueRuns();
    return [...missed, ...(await Promise.all(started))];
  }

  /** Starts what is due without waiting for it: the timer loop keeps waking while a long job runs. */
  private startDueRuns(): { missed: CronRun[]; started: Promise<CronRun>[] } {
    const started: Promise<CronRun>[] = [];
    const missed: CronRun[] = [];
    if (this.stopped || !this.claim()) return { missed, started };
    const now = this.now();
    this.closeAbandonedRuns(now);
    const { jobs, bad } = this.options.store.due(now);
    for (const row of bad) {
      if (this.reportedBad.has(row.id)) continue;
      this.reportedBad.add(row.id);
      this.log('error', `cron job ${row.id} cannot be read and is not run: ${row.problem}`);
    }
    for (const job of jobs) {
      if (this.running.has(job.id)) continue;
      const outcome = this.startDue(job, now);
      if (outcome === null) continue;
      if ('missed' in outcome) missed.push(outcome.missed);
      else started.push(outcome.run);
    }
    return { missed, started };
  }

  /** Runs a job now, whatever its schedule (`hearth cron run`); its next slot stays as it was. */
  runNow(jobId: string): Promise<CronRun> {
    const job = this.options.store.get(jobId);
    return this.track(job, executeJob(this.deps, job, { trigger: 'manual', scheduledFor: null }, this.controller.signal));
  }

  /** Stops waking, interrupts running jobs, waits for them to record their result, releases the lock. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.controller.abort(new Error('the cron ticker stopped'));
    await Promise.allSettled(this.running.values());
    this.lock.release();
  }

  private claim(): boolean {
    const result: LockResult = this.lock.acquire();
    if (result.acquired) {
      if (this.idleReason !== '') this.log('info', `cron ticker running for ${this.options.home} (pid ${process.pid})`);
      this.idleReason = '';
      return this.lock.heartbeat();
    }
    if (result.reason !== this.idleReason) this.log('info', `cron ticker idle: ${result.reason}`);
    this.idleReason = result.reason;
    return false;
  }

  /** Advances the job past this slot first (so a crash mid-run does not run it twice), then runs or records it. */
  private startDue(job: CronJob, now: number): { run: Promise<CronRun> } | { missed: CronRun } | null {
    const store = this.options.store;
    const slot = job.nextRunAt;
    if (!job.enabled || slot === null || slot > now) return this.startRetry(job);
    let next: number | null;
    try {
      next = nextRunAfter(job.schedule, now, job.timeZone, job.createdAt);
    } catch (err) {
      this.log('error', `cron job ${job.id} (${job.name}): cannot compute its next run: ${errorMessage(err)}`);
      next = null;
    }
    const oneShot = job.schedule.kind === 'at';
    // A new slot supersedes a pending retry of an older one.
    store.update(job.id, { nextRunAt: next, retryAt: null, retryRunId: null, ...(oneShot ? { enabled: false } : {}) });
    const lateMs = now - slot;
    const windowMs = this.options.settings.catch_up_minutes * 60_000;
    if (lateMs > windowMs) {
      const why = `missed: due ${new Date(slot).toISOString()}, ${Math.round(lateMs / 60_000)} min late, beyond the catch-up window of ${this.options.settings.catch_up_minutes} min (cron.catch_up_minutes); nothing was ticking then`;
      this.log('warning', `cron job ${job.id} (${job.name}) ${why}`);
      return { missed: store.recordMissed(job.id, slot, why) };
    }
    const run = executeJob(this.deps, job, { trigger: 'schedule', scheduledFor: slot }, this.controller.signal);
    return { run: this.track(job, run) };
  }

  private startRetry(job: CronJob): { run: Promise<CronRun> } | null {
    if (job.retryRunId === null) {
      this.options.store.update(job.id, { retryAt: null });
      return null;
    }
    const failed = this.options.store.getRun(job.retryRunId);
    this.options.store.update(job.id, { retryAt: null });
    return { run: this.track(job, executeJob(this.deps, job, { trigger: 'retry', scheduledFor: failed.scheduledFor, retryOf: failed }, this.controller.signal)) };
  }

  private track(job: CronJob, run: Promise<CronRun>): Promise<CronRun> {
    this.running.set(job.id, run);
    const logged = run.then(
      (result) => {
        this.log(result.status === 'ok' ? 'info' : 'warning', `cron job ${job.id} (${job.name}) run ${result.id} attempt ${result.attempt}: ${result.status}${result.error === null ? '' : `: ${result.error}`}`);
        return result;
      },
      (err: unknown) => {
        // executeJob records failures as runs; a rejection means the store itself failed.
        this.log('error', `cron job ${job.id} (${job.name}): the run could not be recorded: ${errorMessage(err)}`);
        throw err;
      },
    );
    const settled = logged.finally(() => {
      this.running.delete(job.id);
      this.wake();
    });
    return settled;
  }

  /** Runs left 'running' past the run timeout belong to a process that died: close them as failed. */
  private closeAbandonedRuns(now: number): void {
    const cutoff = now - this.deps.runTimeoutMs - 60_000;
    for (const run of this.options.store.running()) {
      if (this.running.has(run.jobId) || run.startedAt > cutoff) continue;
      this.options.store.finishRun(run.id, { status: 'failed', output: run.output, error: 'the process running it stopped before it finished', deliveries: run.deliveries, sessionId: run.sessionId });
    }
  }

  private wake(): void {
    if (this.options.autoTick !== false && !this.stopped) this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      try {
        // Each run logs its own failure (track); nothing waits on them here.
        for (const run of this.startDueRuns().started) run.catch(() => undefined);
      } catch (err) {
        this.log('error', `cron tick failed: ${errorMessage(err)}`);
      }
      this.schedule(this.sleepMs());
    }, delayMs);
  }

  private sleepMs(): number {
    const poll = this.options.pollMs ?? 30_000;
    if (!this.lock.isHeld) return poll;
    const next = this.options.store.nextWake();
    if (next === null) return poll;
    return Math.max(20, Math.min(poll, next - this.now()));
  }

  private log(level: 'info' | 'warning' | 'error', message: string): void {
    this.options.log?.(level, message);
  }
}
