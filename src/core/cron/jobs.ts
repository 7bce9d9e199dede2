import { isAbsolute, resolve } from 'node:path';
import { HearthError } from '../errors.js';
import type { CronJob, CronJobStore, JobChanges } from './job-store.js';
import { assertTimeZone, describeSchedule, firstRun, nextRunAfter, parseSchedule, storedScheduleText } from './schedule.js';
import { normalizeTarget } from './targets.js';

/** What a person or the model asks for; the CLI and the `cronjob` tool both create and edit through here. */
export interface JobSpec {
  schedule: string;
  prompt: string;
  name?: string;
  timeZone?: string;
  skills?: string[];
  model?: string | null;
  workdir?: string | null;
  deliver?: string[];
}

export interface JobContext {
  now: number;
  /** The zone a job without one gets (`cron.timezone`, else this computer's). */
  defaultTimeZone: string;
  /** Where relative workdirs and `file:` targets resolve. */
  cwd: string;
}

/** Checks everything before anything is written: a bad schedule, zone or target is a `usage` error naming the fix. */
export function createJob(store: CronJobStore, spec: JobSpec, context: JobContext): CronJob {
  const prompt = spec.prompt.trim();
  if (prompt === '') throw new HearthError('usage', 'A cron job needs a prompt: what the agent should do on each run.');
  const timeZone = spec.timeZone ?? context.defaultTimeZone;
  assertTimeZone(timeZone);
  const schedule = parseSchedule(spec.schedule, { now: context.now, timeZone });
  return store.create({
    name: spec.name?.trim() || defaultName(prompt),
    prompt,
    schedule,
    scheduleText: storedScheduleText(schedule),
    timeZone,
    skills: cleanList(spec.skills),
    model: spec.model ?? null,
    workdir: spec.workdir == null ? null : absolute(spec.workdir, context.cwd),
    deliver: (spec.deliver ?? []).map((target) => normalizeTarget(target, context.cwd)),
    nextRunAt: firstRun(schedule, context.now, timeZone),
  });
}

/** Changes a job; a new schedule or zone recomputes the next run from now. */
export function editJob(store: CronJobStore, id: string, spec: Partial<JobSpec>, context: JobContext): CronJob {
  const job = store.get(id);
  const changes: JobChanges = {};
  if (spec.prompt !== undefined) {
    if (spec.prompt.trim() === '') throw new HearthError('usage', 'The prompt cannot be empty.');
    changes.prompt = spec.prompt.trim();
  }
  if (spec.name !== undefined) changes.name = spec.name.trim() || job.name;
  if (spec.skills !== undefined) changes.skills = cleanList(spec.skills);
  if (spec.model !== undefined) changes.model = spec.model;
  if (spec.workdir !== undefined) changes.workdir = spec.workdir === null ? null : absolute(spec.workdir, context.cwd);
  if (spec.deliver !== undefined) changes.deliver = spec.deliver.map((target) => normalizeTarget(target, context.cwd));
  const timeZone = spec.timeZone ?? job.timeZone;
  if (spec.timeZone !== undefined) {
    assertTimeZone(timeZone);
    changes.timeZone = timeZone;
  }
  if (spec.schedule !== undefined || spec.timeZone !== undefined) {
    const schedule = spec.schedule === undefined ? job.schedule : parseSchedule(spec.schedule, { now: context.now, timeZone });
    changes.schedule = { schedule, text: storedScheduleText(schedule) };
    // An interval restarts its grid from now: the old anchor belonged to the old schedule.
    changes.nextRunAt = schedule.kind === 'every' ? context.now + schedule.intervalMs : firstRun(schedule, context.now, timeZone);
    if (schedule.kind === 'at') changes.enabled = true;
  }
  return store.update(id, changes);
}

/** Pause or resume. Resuming a recurring job moves a slot that passed while paused to the next one from now. */
export function setEnabled(store: CronJobStore, id: string, enabled: boolean, now: number): CronJob {
  const job = store.get(id);
  if (!enabled) return store.update(id, { enabled: false, retryAt: null, retryRunId: null });
  if (job.schedule.kind === 'at' && (job.nextRunAt === null || job.schedule.at <= now)) {
    throw new HearthError('usage', `The one-shot job ${id} was due ${new Date(job.schedule.at).toISOString()} and will not run again; give it a new time with \`hearth cron edit ${id} --schedule …\`.`);
  }
  const stale = job.nextRunAt === null || job.nextRunAt <= now;
  return store.update(id, { enabled: true, ...(stale ? { nextRunAt: nextRunAfter(job.schedule, now, job.timeZone, job.createdAt) } : {}) });
}

/** A job as the CLI's `--json` and the `cronjob` tool show it: what was understood, when it runs next. */
export function jobSummary(job: CronJob): Record<string, unknown> {
  return {
    id: job.id,
    name: job.name,
    prompt: job.prompt,
    schedule: job.schedule.text,
    kind: job.schedule.kind,
    understood: describeSchedule(job.schedule, job.timeZone),
    time_zone: job.timeZone,
    enabled: job.enabled,
    next_run_at: iso(job.enabled ? job.nextRunAt : null),
    retry_at: iso(job.retryAt),
    skills: job.skills,
    model: job.model,
    workdir: job.workdir,
    deliver: job.deliver,
    last: job.last === null ? null : { run: job.last.runId, status: job.last.status, at: iso(job.last.at), error: job.last.error },
  };
}

export function iso(at: number | null): string | null {
  return at === null ? null : new Date(at).toISOString();
}

function defaultName(prompt: string): string {
  const line = prompt.split('\n')[0]?.replace(/\s+/g, ' ').trim() ?? '';
  return line.length > 48 ? `${line.slice(0, 47)}…` : line;
}

function cleanList(values: readonly string[] | undefined): string[] {
  return [...new Set((values ?? []).map((v) => v.trim()).filter((v) => v !== ''))];
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
