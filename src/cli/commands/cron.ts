import { systemTimeZone } from '../../core/cron/schedule.js';
import { agentJobRunner } from '../../core/cron/agent-runner.js';
import { delivererRegistry, desktopDeliverer, fileDeliverer } from '../../core/cron/deliverers.js';
import { CronJobStore, type CronJob, type CronRun } from '../../core/cron/job-store.js';
import { createJob, editJob, iso, jobSummary, setEnabled, type JobContext, type JobSpec } from '../../core/cron/jobs.js';
import { executeJob } from '../../core/cron/run-job.js';
import { HearthError } from '../../core/errors.js';
import { parseCommandArgs } from '../args.js';
import { openCliEngine } from '../engine.js';
import type { CliIO } from '../io.js';
import { withCliStore } from '../services.js';

export const cronHelp = `Usage:
  hearth cron list [--json]                                   the jobs, their next run and last result
  hearth cron create --schedule "<s>" --prompt "<p>" [--name N] [--deliver <target>]... [--tz ZONE]
                     [--skill NAME]... [--model M] [--workdir DIR] [--json]
  hearth cron edit <id> [--schedule "<s>"] [--prompt "<p>"] [--name N] [--deliver <target>]... [--tz ZONE] ...
  hearth cron pause|resume|remove <id>
  hearth cron run <id> [--json]                               run it now, here; prints the run (status ok|failed, error)
  hearth cron history <id> [--json]                           its runs, newest first, with output and deliveries
Schedules: "every 30m" / "every 2h" / "every 1d", a 5-field cron expression ("0 9 * * 1-5", read in --tz or
cron.timezone), an ISO 8601 time ("2026-12-24T18:00:00Z"), or "in 45m" / "in 2h".
Targets: file:<path> (appended), desktop (a notification from the desktop app), telegram:<chat id> and the other
chat platforms (through \`hearth gateway\`). A delivery that fails fails the run; it is retried (cron.max_attempts).
Jobs run on their own while \`hearth gateway\`, \`hearth serve\` or the desktop app is running.`;

const FLAGS = {
  json: { type: 'boolean' },
  schedule: { type: 'string' },
  prompt: { type: 'string' },
  name: { type: 'string' },
  deliver: { type: 'string', multiple: true },
  tz: { type: 'string' },
  skill: { type: 'string', multiple: true },
  model: { type: 'string' },
  workdir: { type: 'string' },
} as const;

export async function cronCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('cron', argv, FLAGS);
  if (values.help) {
    io.out(`${cronHelp}\n`);
    return 0;
  }
  const [action = 'list', id, extra] = positionals;
  if (extra !== undefined) throw new HearthError('usage', `hearth cron: unexpected argument "${extra}".\n${cronHelp}`);
  const json = values.json === true;
  const spec: Partial<JobSpec> = {
    ...(values.schedule === undefined ? {} : { schedule: values.schedule }),
    ...(values.prompt === undefined ? {} : { prompt: values.prompt }),
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(values.deliver === undefined ? {} : { deliver: values.deliver }),
    ...(values.tz === undefined ? {} : { timeZone: values.tz }),
    ...(values.skill === undefined ? {} : { skills: values.skill }),
    ...(values.model === undefined ? {} : { model: values.model === '' ? null : values.model }),
    ...(values.workdir === undefined ? {} : { workdir: values.workdir === '' ? null : values.workdir }),
  };
  if (action === 'run') return runJobHere(io, needId(action, id), json);
  return withCliStore(io, ({ store, config }) => {
    const jobs = new CronJobStore(store.db);
    const settings = config.current().cron;
    const context = (): JobContext => ({ now: Date.now(), defaultTimeZone: settings.timezone ?? systemTimeZone(), cwd: io.cwd });
    switch (action) {
      case 'list': {
        const { jobs: list, bad } = jobs.list();
        if (json) io.out(`${JSON.stringify({ jobs: list.map(jobSummary), unreadable: bad })}\n`);
        else io.out(formatList(list, bad));
        return bad.length === 0 ? 0 : 1;
      }
      case 'create': {
        if (spec.schedule === undefined || spec.prompt === undefined) throw new HearthError('usage', `hearth cron create needs --schedule and --prompt.\n${cronHelp}`);
        const job = createJob(jobs, spec as JobSpec, context());
        io.out(json ? `${JSON.stringify(jobSummary(job))}\n` : `Created cron job ${job.id}: ${describe(job)}\n`);
        return 0;
      }
      case 'edit': {
        if (Object.keys(spec).length === 0) throw new HearthError('usage', `hearth cron edit ${id ?? '<id>'}: say what to change (--schedule, --prompt, --deliver, …).`);
        const job = editJob(jobs, needId(action, id), spec, context());
        io.out(json ? `${JSON.stringify(jobSummary(job))}\n` : `Changed cron job ${job.id}: ${describe(job)}\n`);
        return 0;
      }
      case 'pause':
      case 'resume': {
        const job = setEnabled(jobs, needId(action, id), action === 'resume', Date.now());
        io.out(json ? `${JSON.stringify(jobSummary(job))}\n` : `${action === 'pause' ? 'Paused' : 'Resumed'} cron job ${job.id}: ${describe(job)}\n`);
        return 0;
      }
      case 'remove': {
        const target = needId(action, id);
        if (!jobs.remove(target)) throw new HearthError('usage', `No cron job with id "${target}". \`hearth cron list\` shows the jobs.`);
        io.out(json ? `${JSON.stringify({ removed: target })}\n` : `Removed cron job ${target} and its history.\n`);
        return 0;
      }
      case 'history': {
        const job = jobs.get(needId(action, id));
        const runs = jobs.history(job.id);
        if (json) io.out(`${JSON.stringify({ job: jobSummary(job), runs: runs.map(runJson) })}\n`);
        else io.out(runs.length === 0 ? `Cron job ${job.id} has not run yet. Next run: ${iso(job.nextRunAt) ?? 'none'}.\n` : runs.map(formatRun).join(''));
        return 0;
      }
      default:
        throw new HearthError('usage', `Unknown cron action "${action}".\n${cronHelp}`);
    }
  });
}

/**
 * `hearth cron run <id>`: the job runs in this process on a full engine (its model override and workdir
 * applied), in a fresh session with source `cron`, and is delivered and recorded exactly as a scheduled run.
 */
async function runJobHere(io: CliIO, id: string, json: boolean): Promise<number> {
  const job = await withCliStore(io, ({ store }) => new CronJobStore(store.db).get(id));
  const engine = await openCliEngine({ ...io, cwd: job.workdir ?? io.cwd }, { yolo: false, ...(job.model === null ? {} : { model: job.model }) });
  try {
    const settings = engine.config.current().cron;
    const host = engine.sessions.host;
    const run = await executeJob(
      {
        store: new CronJobStore(engine.sessions.store.db),
        // This engine was opened with the job's model and workdir, so the overrides are already in place.
        runner: agentJobRunner({ host, openFor: async () => ({ host, close: async () => undefined }) }),
        deliverers: delivererRegistry([fileDeliverer, desktopDeliverer(null)]),
        now: Date.now,
        maxAttempts: settings.max_attempts,
        retryBackoffMs: settings.retry_backoff_s * 1000,
        runTimeoutMs: settings.run_timeout_minutes * 60_000,
      },
      job,
      { trigger: 'manual', scheduledFor: null },
      new AbortController().signal,
    );
    if (json) io.out(`${JSON.stringify(runJson(run))}\n`);
    else io.out(formatRun(run));
    return run.status === 'ok' ? 0 : 1;
  } finally {
    await engine.dispose();
  }
}

function needId(action: string, id: string | undefined): string {
  if (id === undefined || id.trim() === '') throw new HearthError('usage', `hearth cron ${action} needs a job id (\`hearth cron list\` shows them).`);
  return id.trim();
}

function describe(job: CronJob): string {
  const summary = jobSummary(job);
  const next = job.enabled ? `next run ${String(summary.next_run_at ?? 'none')}` : 'paused';
  return `${job.name}: ${String(summary.understood)}, ${next}${job.deliver.length === 0 ? ', output kept in history' : `, delivered to ${job.deliver.join(', ')}`}`;
}

function formatList(jobs: CronJob[], bad: { id: string; problem: string }[]): string {
  if (jobs.length === 0 && bad.length === 0) return 'No cron jobs. Create one with `hearth cron create --schedule "every 1d" --prompt "…"`.\n';
  const rows = jobs.map((job) => {
    const last = job.last === null ? 'never run' : `last ${job.last.status} ${iso(job.last.at) ?? ''}${job.last.error === null ? '' : `: ${job.last.error}`}`;
    return `${job.id}  ${describe(job)}\n            ${last}${job.retryAt === null ? '' : `; retry at ${iso(job.retryAt) ?? ''}`}`;
  });
  const problems = bad.map((row) => `${row.id}  UNREADABLE: ${row.problem} (fix it with \`hearth cron edit ${row.id}\` or remove it)`);
  return `${[...rows, ...problems].join('\n')}\n`;
}

function runJson(run: CronRun): Record<string, unknown> {
  return {
    id: run.id,
    job_id: run.jobId,
    status: run.status,
    error: run.error,
    output: run.output,
    trigger: run.trigger,
    attempt: run.attempt,
    scheduled_for: iso(run.scheduledFor),
    started_at: iso(run.startedAt),
    finished_at: iso(run.finishedAt),
    deliveries: run.deliveries.map((d) => ({ ...d, at: iso(d.at) })),
    session_id: run.sessionId,
  };
}

function formatRun(run: CronRun): string {
  const head = `run ${run.id} (${run.trigger}, attempt ${run.attempt}) ${iso(run.startedAt) ?? ''}: ${run.status}${run.error === null ? '' : `: ${run.error}`}`;
  const deliveries = run.deliveries.map((d) => `  ${d.ok ? 'delivered' : 'NOT delivered'} to ${d.target}${d.error === undefined ? '' : `: ${d.error}`}`);
  const output = run.output === null ? [] : [`  output: ${run.output.replace(/\n/g, '\n          ')}`];
  return `${[head, ...deliveries, ...output].join('\n')}\n`;
}
