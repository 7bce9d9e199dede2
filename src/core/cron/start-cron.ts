import type { CronSettings } from '../config/schema-cron.js';
import type { Db } from '../store/database.js';
import { agentJobRunner, type AgentRunnerOptions } from './agent-runner.js';
import { delivererRegistry, desktopDeliverer, fileDeliverer, type DesktopNotifier } from './deliverers.js';
import { CronJobStore } from './job-store.js';
import type { JobRunner } from './run-job.js';
import type { Deliverer } from './targets.js';
import { CronTicker, type TickerState } from './ticker.js';

export interface StartCronOptions {
  home: string;
  /** The open store's database (`engine.sessions.store.db`). */
  db: Db;
  settings: CronSettings;
  /** How a job runs: `{ host: engine.sessions.host }` (a fresh `cron` session per run), or any `JobRunner`. */
  runner: AgentRunnerOptions | JobRunner;
  /** The desktop shell's notifications; without it `desktop` deliveries fail and say so. */
  notifyDesktop?: DesktopNotifier | null;
  /** Chat deliverers from the gateway (`telegram`, `discord`, …); they may replace the built-in ones. */
  deliverers?: readonly Deliverer[];
  now?: () => number;
  pollMs?: number;
  log?: (level: 'info' | 'warning' | 'error', message: string) => void;
}

export type StopCron = (() => Promise<void>) & { state(): TickerState; ticker: CronTicker };

/**
 * Starts this home's cron ticker for a long-running process (`hearth gateway`, `hearth serve`, the desktop
 * app): whichever starts first owns the lock and runs jobs; the others stay idle until it stops. Returns the
 * function that stops it (interrupting running jobs, which record their result, and releasing the lock).
 * `cron.enabled: false` starts nothing.
 */
export function startCron(options: StartCronOptions): StopCron {
  const runner = typeof options.runner === 'function' ? options.runner : agentJobRunner(options.runner);
  const ticker = new CronTicker({
    home: options.home,
    store: new CronJobStore(options.db, options.now),
    runner,
    deliverers: delivererRegistry([fileDeliverer, desktopDeliverer(options.notifyDesktop ?? null), ...(options.deliverers ?? [])]),
    settings: options.settings,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  if (options.settings.enabled) ticker.start();
  const stop = (() => ticker.stop()) as StopCron;
  stop.state = () => (options.settings.enabled ? ticker.state() : { owner: false, reason: 'cron.enabled is false in config.yaml' });
  stop.ticker = ticker;
  return stop;
}
