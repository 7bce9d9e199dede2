import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { HearthError, errorMessage } from '../errors.js';
import type { Db } from '../store/database.js';
import { restoreSchedule, type Schedule } from './schedule.js';
import { parseTarget } from './targets.js';

/** A scheduled job as the ticker, the CLI and the `cronjob` tool see it. */
export interface CronJob {
  id: string;
  name: string;
  prompt: string;
  schedule: Schedule;
  timeZone: string;
  skills: string[];
  /** Model override for the run; null: the configured model. */
  model: string | null;
  /** Where the run's commands start; null: the ticker's workspace. */
  workdir: string | null;
  /** Normalized delivery targets (`file:/abs/path`, `desktop`, `telegram:<chat>`). */
  deliver: string[];
  enabled: boolean;
  /** The next scheduled slot (epoch ms); null when nothing is left (a one-shot that ran, or was missed). */
  nextRunAt: number | null;
  /** When a failed run is tried again; null when none is pending. */
  retryAt: number | null;
  /** The failed run that retry continues. */
  retryRunId: number | null;
  last: { runId: number; status: RunStatus; at: number; error: string | null } | null;
  createdAt: number;
  updatedAt: number;
}

export type RunStatus = 'running' | 'ok' | 'failed' | 'missed';
export type RunTrigger = 'schedule' | 'manual' | 'retry' | 'missed';

export interface DeliveryResult {
  target: string;
  ok: boolean;
  error?: string;
  /** Epoch ms of the attempt. */
  at: number;
  /** Delivered by an earlier attempt of this run (the retry did not deliver it again). */
  deliveredInRun?: number;
}

export interface CronRun {
  id: number;
  jobId: string;
  trigger: RunTrigger;
  attempt: number;
  scheduledFor: number | null;
  startedAt: number;
  finishedAt: number | null;
  status: RunStatus;
  output: string | null;
  error: string | null;
  deliveries: DeliveryResult[];
  sessionId: string | null;
}

/** A row that could not be read as a job: listed with why, so a hand edit or a bug shows instead of vanishing. */
export interface BadJobRow {
  id: string;
  problem: string;
}

export interface NewJob {
  name: string;
  prompt: string;
  schedule: Schedule;
  /** Stored text of the schedule (a one-shot as its instant; see `storedScheduleText`). */
  scheduleText: string;
  timeZone: string;
  skills?: string[];
  model?: string | null;
  workdir?: string | null;
  deliver?: string[];
  nextRunAt: number | null;
  enabled?: boolean;
}

export type JobChanges = Partial<Pick<CronJob, 'name' | 'prompt' | 'timeZone' | 'skills' | 'model' | 'workdir' | 'deliver' | 'enabled' | 'nextRunAt' | 'retryAt' | 'retryRunId'>> & {
  schedule?: { schedule: Schedule; text: string };
};

const StringList = z.array(z.string());
const Deliveries = z.array(z.object({ target: z.string(), ok: z.boolean(), error: z.string().optional(), at: z.number(), deliveredInRun: z.number().optional() }));

interface JobRow {
  id: string;
  name: string;
  prompt: string;
  schedule_text: string;
  schedule_kind: string;
  time_zone: string;
  skills: string;
  model: string | null;
  workdir: string | null;
  deliver: string;
  enabled: number;
  next_run_at: number | null;
  retry_at: number | null;
  retry_run_id: number | null;
  last_run_id: number | null;
  last_status: string | null;
  last_run_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

interface RunRow {
  id: number;
  job_id: string;
  trigger: RunTrigger;
  attempt: number;
  scheduled_for: number | null;
  started_at: number;
  finished_at: number | null;
  status: RunStatus;
  output: string | null;
  error: string | null;
  deliveries: string;
  session_id: string | null;
}

/**
 * Jobs and runs in the encrypted store (`cron_jobs`, `cron_runs`, store version 12). Every read parses the row;
 * one that does not parse is reported as a `BadJobRow` by `list()` and as an error by `get()`, never skipped
 * quietly and never a crash of the whole list.
 */
export class CronJobStore {
  private readonly statements;

  constructor(
    readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = {
      all: db.prepare<[], JobRow>('SELECT * FROM cron_jobs ORDER BY created_at, id'),
      get: db.prepare<[string], JobRow>('SELECT * FROM cron_jobs WHERE id = ?'),
      due: db.prepare<[number, number], JobRow>(
        // A retry runs even when the job is no longer enabled (a one-shot is disabled once its slot ran); pausing clears it.
        'SELECT * FROM cron_jobs WHERE (enabled = 1 AND next_run_at IS NOT NULL AND next_run_at <= ?) OR (retry_at IS NOT NULL AND retry_at <= ?) ORDER BY COALESCE(MIN(next_run_at, retry_at), next_run_at, retry_at)',
      ),
      nextWake: db.prepare<[], { at: number | null }>('SELECT MIN(MIN(CASE WHEN enabled = 1 THEN COALESCE(next_run_at, 9e15) ELSE 9e15 END, COALESCE(retry_at, 9e15))) AS at FROM cron_jobs'),
      remove: db.prepare<[string]>('DELETE FROM cron_jobs WHERE id = ?'),
      startRun: db.prepare<[string, RunTrigger, number, number | null, number]>(
        "INSERT INTO cron_runs (job_id, trigger, attempt, scheduled_for, started_at, status) VALUES (?, ?, ?, ?, ?, 'running')",
      ),
      finishRun: db.prepare<{ id: number; finished_at: number; status: RunStatus; output: string | null; error: string | null; deliveries: string; session_id: string | null }>(
        'UPDATE cron_runs SET finished_at = @finished_at, status = @status, output = @output, error = @error, deliveries = @deliveries, session_id = @session_id WHERE id = @id',
      ),
      recordLast: db.prepare<{ id: string; run: number; status: RunStatus; at: number; error: string | null }>(
        'UPDATE cron_jobs SET last_run_id = @run, last_status = @status, last_run_at = @at, last_error = @error WHERE id = @id',
      ),
      missed: db.prepare<[string, RunTrigger, number, number | null, number, number, string]>(
        "INSERT INTO cron_runs (job_id, trigger, attempt, scheduled_for, started_at, finished_at, status, error) VALUES (?, ?, ?, ?, ?, ?, 'missed', ?)",
      ),
      run: db.prepare<[number], RunRow>('SELECT * FROM cron_runs WHERE id = ?'),
      history: db.prepare<[string, number], RunRow>('SELECT * FROM cron_runs WHERE job_id = ? ORDER BY id DESC LIMIT ?'),
      running: db.prepare<[], RunRow>("SELECT * FROM cron_runs WHERE status = 'running'"),
    };
  }

  create(job: NewJob): CronJob {
    const id = newJobId();
    const at = this.now();
    this.db
      .prepare(
        `INSERT INTO cron_jobs (id, name, prompt, schedule_text, schedule_kind, time_zone, skills, model, workdir, deliver, enabled, next_run_at, created_at, updated_at)
         VALUES (@id, @name, @prompt, @schedule_text, @schedule_kind, @time_zone, @skills, @model, @workdir, @deliver, @enabled, @next_run_at, @at, @at)`,
      )
      .run({
        id,
        name: job.name,
        prompt: job.prompt,
        schedule_text: job.scheduleText,
        schedule_kind: job.schedule.kind,
        time_zone: job.timeZone,
        skills: JSON.stringify(job.skills ?? []),
        model: job.model ?? null,
        workdir: job.workdir ?? null,
        deliver: JSON.stringify(job.deliver ?? []),
        enabled: job.enabled === false ? 0 : 1,
        next_run_at: job.nextRunAt,
        at,
      });
    return this.get(id);
  }

  /** Every job that reads, and every row that does not, with why. */
  list(): { jobs: CronJob[]; bad: BadJobRow[] } {
    const jobs: CronJob[] = [];
    const bad: BadJobRow[] = [];
    for (const row of this.statements.all.all()) {
      const read = readJob(row);
      if ('problem' in read) bad.push(read);
      else jobs.push(read);
    }
    return { jobs, bad };
  }

  /** The job; `usage` error when there is none, `config_invalid` when its row does not read. */
  get(id: string): CronJob {
    const row = this.statements.get.get(id);
    if (row === undefined) throw new HearthError('usage', `No cron job with id "${id}". \`hearth cron list\` shows the jobs.`);
    const read = readJob(row);
    if ('problem' in read) throw new HearthError('config_invalid', `The cron job ${id} cannot be read: ${read.problem}. Fix it with \`hearth cron edit ${id}\` or remove it.`);
    return read;
  }

  /** Jobs with a slot or a retry at or before `at`, earliest first, plus the rows that do not read. */
  due(at: number): { jobs: CronJob[]; bad: BadJobRow[] } {
    const jobs: CronJob[] = [];
    const bad: BadJobRow[] = [];
    for (const row of this.statements.due.all(at, at)) {
      const read = readJob(row);
      if ('problem' in read) bad.push(read);
      else jobs.push(read);
    }
    return { jobs, bad };
  }

  /** The earliest slot or retry of an enabled job (epoch ms), or null when nothing is scheduled. */
  nextWake(): number | null {
    const at = this.statements.nextWake.get()?.at ?? null;
    return at === null || at >= 9e15 ? null : at;
  }

  update(id: string, changes: JobChanges): CronJob {
    const sets: string[] = [];
    const values: Record<string, unknown> = { id, updated_at: this.now() };
    const set = (column: string, value: unknown): void => {
      sets.push(`${column} = @${column}`);
      values[column] = value;
    };
    if (changes.name !== undefined) set('name', changes.name);
    if (changes.prompt !== undefined) set('prompt', changes.prompt);
    if (changes.schedule !== undefined) {
      set('schedule_text', changes.schedule.text);
      set('schedule_kind', changes.schedule.schedule.kind);
    }
    if (changes.timeZone !== undefined) set('time_zone', changes.timeZone);
    if (changes.skills !== undefined) set('skills', JSON.stringify(changes.skills));
    if (changes.model !== undefined) set('model', changes.model);
    if (changes.workdir !== undefined) set('workdir', changes.workdir);
    if (changes.deliver !== undefined) set('deliver', JSON.stringify(changes.deliver));
    if (changes.enabled !== undefined) set('enabled', changes.enabled ? 1 : 0);
    if (changes.nextRunAt !== undefined) set('next_run_at', changes.nextRunAt);
    if (changes.retryAt !== undefined) set('retry_at', changes.retryAt);
    if (changes.retryRunId !== undefined) set('retry_run_id', changes.retryRunId);
    const result = this.db.prepare(`UPDATE cron_jobs SET ${[...sets, 'updated_at = @updated_at'].join(', ')} WHERE id = @id`).run(values);
    if (result.changes === 0) throw new HearthError('usage', `No cron job with id "${id}". \`hearth cron list\` shows the jobs.`);
    return this.get(id);
  }

  /** Removes the job and its history. False when there was none. */
  remove(id: string): boolean {
    return this.statements.remove.run(id).changes > 0;
  }

  startRun(jobId: string, trigger: RunTrigger, attempt: number, scheduledFor: number | null): number {
    return Number(this.statements.startRun.run(jobId, trigger, attempt, scheduledFor, this.now()).lastInsertRowid);
  }

  finishRun(runId: number, result: { status: 'ok' | 'failed'; output: string | null; error: string | null; deliveries: DeliveryResult[]; sessionId?: string | null }): CronRun {
    const at = this.now();
    this.db.transaction(() => {
      this.statements.finishRun.run({ id: runId, finished_at: at, status: result.status, output: result.output, error: result.error, deliveries: JSON.stringify(result.deliveries), session_id: result.sessionId ?? null });
      const run = this.getRun(runId);
      this.statements.recordLast.run({ id: run.jobId, run: runId, status: result.status, at, error: result.error });
    })();
    return this.getRun(runId);
  }

  /** A slot that was not run (too late for the catch-up window), recorded so history says so. */
  recordMissed(jobId: string, scheduledFor: number, why: string): CronRun {
    const at = this.now();
    const id = this.db.transaction(() => {
      const runId = Number(this.statements.missed.run(jobId, 'missed', 1, scheduledFor, at, at, why).lastInsertRowid);
      this.statements.recordLast.run({ id: jobId, run: runId, status: 'missed', at, error: why });
      return runId;
    })();
    return this.getRun(id);
  }

  getRun(id: number): CronRun {
    const row = this.statements.run.get(id);
    if (row === undefined) throw new HearthError('usage', `No cron run with id ${id}.`);
    return readRun(row);
  }

  /** The job's runs, newest first. */
  history(jobId: string, limit = 50): CronRun[] {
    return this.statements.history.all(jobId, limit).map(readRun);
  }

  /** Runs still marked running: after a crash, the next ticker closes them as failed. */
  running(): CronRun[] {
    return this.statements.running.all().map(readRun);
  }
}

function newJobId(): string {
  // Short enough to type in `hearth cron run <id>`; 40 random bits make a clash in one home negligible.
  return randomBytes(5).toString('hex');
}

function readJob(row: JobRow): CronJob | BadJobRow {
  try {
    const schedule = restoreSchedule(row.schedule_kind, row.schedule_text, row.time_zone);
    const deliver = parseJson(StringList, row.deliver, 'deliver');
    for (const target of deliver) parseTarget(target);
    return {
      id: row.id,
      name: row.name,
      prompt: row.prompt,
      schedule,
      timeZone: row.time_zone,
      skills: parseJson(StringList, row.skills, 'skills'),
      model: row.model,
      workdir: row.workdir,
      deliver,
      enabled: row.enabled === 1,
      nextRunAt: row.next_run_at,
      retryAt: row.retry_at,
      retryRunId: row.retry_run_id,
      last:
        row.last_run_id === null || row.last_run_at === null
          ? null
          : { runId: row.last_run_id, status: (row.last_status ?? 'failed') as RunStatus, at: row.last_run_at, error: row.last_error },
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  } catch (err) {
    return { id: row.id, problem: errorMessage(err) };
  }
}

function readRun(row: RunRow): CronRun {
  let deliveries: DeliveryResult[];
  try {
    deliveries = parseJson(Deliveries, row.deliveries, 'deliveries') as DeliveryResult[];
  } catch (err) {
    // The run itself still reads; say that its delivery record does not, instead of showing none.
    deliveries = [{ target: '(unreadable)', ok: false, error: errorMessage(err), at: row.finished_at ?? row.started_at }];
  }
  return {
    id: row.id,
    jobId: row.job_id,
    trigger: row.trigger,
    attempt: row.attempt,
    scheduledFor: row.scheduled_for,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
    output: row.output,
    error: row.error,
    deliveries,
    sessionId: row.session_id,
  };
}

function parseJson<T>(schema: z.ZodType<T>, text: string, column: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${column} is not JSON (${errorMessage(err)})`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${column} is not a list of strings`);
  return parsed.data;
}
