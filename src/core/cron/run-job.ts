import { errorMessage, isHearthError } from '../errors.js';
import type { CronJob, CronJobStore, CronRun, DeliveryResult, RunTrigger } from './job-store.js';
import { parseTarget, type Deliverer, type TargetKind } from './targets.js';

/**
 * Runs a job's prompt and returns the agent's final answer. A port: the composition builds it from the engine
 * (a fresh agent session with source `cron`, see `agent-runner.ts`); tests pass plain functions. Rejecting
 * means the job failed.
 */
export type JobRunner = (job: CronJob, signal: AbortSignal) => Promise<{ output: string; sessionId?: string }>;

export interface RunDeps {
  store: CronJobStore;
  runner: JobRunner;
  deliverers: ReadonlyMap<TargetKind, Deliverer>;
  now: () => number;
  /** Attempts in all, the first included (`cron.max_attempts`). */
  maxAttempts: number;
  /** Wait before the first retry; doubled for each further one (`cron.retry_backoff_s`). */
  retryBackoffMs: number;
  /** A run taking longer is stopped and failed (`cron.run_timeout_minutes`). */
  runTimeoutMs: number;
}

export interface RunRequest {
  trigger: RunTrigger;
  scheduledFor: number | null;
  /** The failed run this one retries: its output is re-delivered when only delivery failed. */
  retryOf?: CronRun;
}

/**
 * One attempt of a job: run it (or reuse the output of the attempt it retries, when only delivery failed),
 * deliver to every target that has not received it yet, and record the run. The run is `ok` only when the job
 * ran and every delivery succeeded; otherwise it is `failed`, with the error, and a retry is scheduled on the
 * job while attempts remain. Never throws for a failed job or delivery: that is the run's result.
 */
export async function executeJob(deps: RunDeps, job: CronJob, request: RunRequest, signal: AbortSignal): Promise<CronRun> {
  const previous = request.retryOf;
  const attempt = previous === undefined ? 1 : previous.attempt + 1;
  const runId = deps.store.startRun(job.id, request.trigger, attempt, request.scheduledFor ?? previous?.scheduledFor ?? null);
  let output: string | null = null;
  let sessionId: string | null = null;
  let error: string | null = null;
  const deliveries: DeliveryResult[] = [];

  // Re-running the agent would repeat what it did (and re-deliver where delivery worked); a run whose
  // job succeeded and only some deliveries failed is retried by delivering the same output again.
  const reuse = previous !== undefined && previous.output !== null && previous.deliveries.some((d) => !d.ok);
  if (reuse) {
    output = previous.output;
    sessionId = previous.sessionId;
  } else {
    const timeout = AbortSignal.timeout(deps.runTimeoutMs);
    try {
      const result = await deps.runner(job, AbortSignal.any([signal, timeout]));
      output = result.output;
      sessionId = result.sessionId ?? null;
    } catch (err) {
      error = timeout.aborted ? `the run took longer than ${Math.round(deps.runTimeoutMs / 60_000)} min (cron.run_timeout_minutes) and was stopped` : `the job failed: ${errorMessage(err)}`;
    }
  }

  if (output !== null) {
    const done = new Set(reuse ? previous.deliveries.filter((d) => d.ok).map((d) => d.target) : []);
    for (const target of job.deliver) {
      if (done.has(target)) {
        const earlier = previous?.deliveries.find((d) => d.target === target && d.ok);
        deliveries.push({ target, ok: true, at: earlier?.at ?? deps.now(), ...(previous === undefined ? {} : { deliveredInRun: previous.deliveries.find((d) => d.target === target)?.deliveredInRun ?? previous.id }) });
        continue;
      }
      deliveries.push(await deliver(deps, job, target, output, runId));
    }
    const failed = deliveries.filter((d) => !d.ok);
    if (failed.length > 0) error = `delivery failed: ${failed.map((d) => `${d.target}: ${d.error ?? 'unknown error'}`).join('; ')}`;
  }

  const status = error === null ? 'ok' : 'failed';
  const run = deps.store.finishRun(runId, { status, output, error, deliveries, sessionId });
  scheduleRetry(deps, job, run);
  return run;
}

async function deliver(deps: RunDeps, job: CronJob, target: string, text: string, runId: number): Promise<DeliveryResult> {
  try {
    const parsed = parseTarget(target);
    const deliverer = deps.deliverers.get(parsed.kind);
    if (deliverer === undefined) {
      throw new Error(`nothing here delivers to ${parsed.kind} targets (chat targets need \`hearth gateway\` with ${parsed.kind} configured)`);
    }
    await deliverer.deliver(parsed, text, { jobId: job.id, jobName: job.name, runId, at: deps.now() });
    return { target, ok: true, at: deps.now() };
  } catch (err) {
    return { target, ok: false, error: errorMessage(err), at: deps.now() };
  }
}

/** A failed attempt with attempts left gets a retry on the job, with exponential backoff; otherwise none is pending. */
function scheduleRetry(deps: RunDeps, job: CronJob, run: CronRun): void {
  const retry = run.status === 'failed' && run.attempt < deps.maxAttempts;
  try {
    deps.store.update(job.id, retry ? { retryAt: deps.now() + deps.retryBackoffMs * 2 ** (run.attempt - 1), retryRunId: run.id } : { retryAt: null, retryRunId: null });
  } catch (err) {
    // The job was removed while it ran: its history went with it, nothing is left to retry.
    if (!isHearthError(err, 'usage')) throw err;
  }
}
