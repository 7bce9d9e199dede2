import { HearthError } from '../errors.js';
import type { AgentEvent } from '../../shared/events.js';
import type { CronJob } from './job-store.js';
import type { JobRunner } from './run-job.js';

/**
 * The part of `AgentHost` a cron run needs (cron sits below the agent, so it names the shape, not the class):
 * `engine.sessions.host` fits. A session started with source `cron` runs with the cron approval origin: nobody
 * is watching, so dangerous actions are denied unless `approvals.cron` allows them, and changes to Hearth
 * itself always are.
 */
export interface CronSessionHost {
  startSession(input: { source: 'cron'; title?: string }): string;
  send(sessionId: string, text: string): AsyncIterable<AgentEvent>;
  interrupt(sessionId: string): boolean;
}

export interface AgentRunnerOptions {
  /** The host runs without overrides use (the engine the ticker was started with). */
  host: CronSessionHost;
  /**
   * For a job with a model override or its own workdir: a host built for it (an engine opened with that model
   * and workspace), closed after the run. Without it such jobs fail and say why, instead of quietly running on
   * the default model in the wrong folder.
   */
  openFor?: (job: CronJob) => Promise<{ host: CronSessionHost; close(): Promise<void> }>;
}

/** A `JobRunner` over the agent: a fresh session per run, its final answer is the output. */
export function agentJobRunner(options: AgentRunnerOptions): JobRunner {
  return async (job, signal) => {
    const needsOwn = job.model !== null || job.workdir !== null;
    if (needsOwn && options.openFor === undefined) {
      throw new HearthError('usage', `this job sets ${job.model !== null ? `the model ${job.model}` : `the workdir ${job.workdir ?? ''}`}, which this ticker cannot run with; run it with \`hearth cron run ${job.id}\` or clear the override`);
    }
    const own = needsOwn && options.openFor !== undefined ? await options.openFor(job) : null;
    try {
      return await runSession(own?.host ?? options.host, job, signal);
    } finally {
      await own?.close();
    }
  };
}

async function runSession(host: CronSessionHost, job: CronJob, signal: AbortSignal): Promise<{ output: string; sessionId: string }> {
  if (signal.aborted) throw new HearthError('aborted', 'the run was stopped before it started');
  const sessionId = host.startSession({ source: 'cron', title: `cron: ${job.name}` });
  const stop = (): void => void host.interrupt(sessionId);
  signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const event of host.send(sessionId, cronPrompt(job))) {
      if (event.type !== 'turn_end') continue;
      if (event.reason === 'stop') return { output: event.final, sessionId };
      const why = event.error?.message ?? (event.reason === 'budget' ? 'the agent ran out of iterations (agent.max_iterations)' : event.reason === 'aborted' ? 'the run was interrupted' : 'the turn failed');
      throw new HearthError(event.reason === 'aborted' ? 'aborted' : 'usage', `${why} (session ${sessionId})`);
    }
    throw new HearthError('usage', `the agent session ${sessionId} ended without finishing its turn`);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * What the agent is sent: the job's prompt, with the facts a scheduled run differs by (nobody to ask, where the
 * answer goes, skills to load first).
 */
export function cronPrompt(job: CronJob): string {
  const lines = [
    `[Scheduled job "${job.name}" (cron ${job.id}). Nobody is watching this run: do not ask questions; actions that need approval are refused. Your final answer is the job's output${job.deliver.length === 0 ? ', kept in its run history' : `, delivered to ${job.deliver.join(', ')}`}.]`,
  ];
  if (job.skills.length > 0) lines.push(`[Load these skills with skill_view first and follow them: ${job.skills.join(', ')}.]`);
  lines.push('', job.prompt);
  return lines.join('\n');
}
