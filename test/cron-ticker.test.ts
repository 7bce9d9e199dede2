import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CronSection } from '../src/core/config/schema-cron.js';
import { delivererRegistry, desktopDeliverer, fileDeliverer } from '../src/core/cron/deliverers.js';
import { CronJobStore, type CronJob } from '../src/core/cron/job-store.js';
import { createJob, setEnabled } from '../src/core/cron/jobs.js';
import type { JobRunner } from '../src/core/cron/run-job.js';
import { CronTicker, type TickerOptions } from '../src/core/cron/ticker.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

const MIN = 60_000;
const T0 = Date.parse('2026-06-01T08:00:00Z');
const stores: TempStore[] = [];
const tickers: CronTicker[] = [];
afterEach(async () => {
  await Promise.all(tickers.splice(0).map((t) => t.stop()));
  for (const s of stores.splice(0)) s.cleanup();
});

interface Rig {
  temp: TempStore;
  store: CronJobStore;
  clock: { now: number };
  calls: string[];
  ticker(overrides?: Partial<TickerOptions>): CronTicker;
  job(schedule: string, deliver?: string[]): CronJob;
}

function rig(runner?: JobRunner, settings: Record<string, unknown> = {}): Rig {
  const temp = createTempStore('hearth-cron-');
  stores.push(temp);
  const clock = { now: T0 };
  const store = new CronJobStore(temp.open().db, () => clock.now);
  const calls: string[] = [];
  const run: JobRunner =
    runner ??
    (async (job) => {
      calls.push(job.id);
      return { output: `report for ${job.name} at ${new Date(clock.now).toISOString()}` };
    });
  return {
    temp,
    store,
    clock,
    calls,
    ticker(overrides = {}) {
      const ticker = new CronTicker({
        home: temp.dir,
        store,
        runner: run,
        deliverers: delivererRegistry([fileDeliverer, desktopDeliverer(null)]),
        settings: CronSection.parse(settings),
        now: () => clock.now,
        autoTick: false,
        ...overrides,
      });
      tickers.push(ticker);
      return ticker;
    },
    job(schedule, deliver = []) {
      return createJob(store, { schedule, prompt: `do ${schedule}`, deliver }, { now: clock.now, defaultTimeZone: 'UTC', cwd: temp.dir });
    },
  };
}

describe('cron ticker (injected clock)', () => {
  // Catches a ticker that runs jobs early, twice per slot, or not again on the next slot.
  it('runs an interval job once per slot and records ok runs with their output', async () => {
    const r = rig();
    const job = r.job('every 30m');
    const ticker = r.ticker();
    ticker.start();
    expect(await ticker.tick()).toEqual([]);
    r.clock.now = T0 + 30 * MIN;
    const [first] = await ticker.tick();
    expect(first).toMatchObject({ jobId: job.id, status: 'ok', trigger: 'schedule', attempt: 1, scheduledFor: T0 + 30 * MIN, error: null });
    expect(first?.output).toMatch(/^report for/);
    expect(await ticker.tick()).toEqual([]);
    r.clock.now = T0 + 61 * MIN;
    expect(await ticker.tick()).toHaveLength(1);
    expect(r.calls).toEqual([job.id, job.id]);
    expect(r.store.get(job.id)).toMatchObject({ nextRunAt: T0 + 90 * MIN, last: { status: 'ok' } });
  });

  // Catches the Hermes failure where runs missed while nothing ticked either all fire at once or vanish.
  it('runs a late slot once inside the catch-up window and records a slot beyond it as missed', async () => {
    const r = rig(undefined, { catch_up_minutes: 60 });
    const hourly = r.job('every 1h');
    const ticker = r.ticker();
    ticker.start();
    // 40 minutes past the first slot (and no later slot passed): within the window, one run.
    r.clock.now = T0 + 100 * MIN;
    expect((await ticker.tick()).map((run) => run.status)).toEqual(['ok']);
    expect(r.store.get(hourly.id).nextRunAt).toBe(T0 + 120 * MIN);
    // Down for five hours: the slot at +2h is 4h late, beyond the window: missed, not run, and said so.
    r.clock.now = T0 + 6 * 60 * MIN;
    const [missed] = await ticker.tick();
    expect(missed).toMatchObject({ status: 'missed', scheduledFor: T0 + 120 * MIN });
    expect(missed?.error).toMatch(/240 min late, beyond the catch-up window of 60 min \(cron\.catch_up_minutes\)/);
    expect(r.calls).toHaveLength(1);
    expect(r.store.get(hourly.id)).toMatchObject({ nextRunAt: T0 + 7 * 60 * MIN, last: { status: 'missed' } });
    expect(r.store.history(hourly.id).map((run) => run.status)).toEqual(['missed', 'ok']);
  });

  // Catches one-shots that run again after a restart, or stay enabled with a stale next run.
  it('runs a one-shot once and then disables it; a missed one-shot is recorded and disabled too', async () => {
    const r = rig(undefined, { catch_up_minutes: 10 });
    const once = r.job('in 5m');
    const late = r.job('in 6m');
    const ticker = r.ticker();
    ticker.start();
    r.clock.now = T0 + 5 * MIN;
    expect(await ticker.tick()).toMatchObject([{ jobId: once.id, status: 'ok' }]);
    expect(r.store.get(once.id)).toMatchObject({ enabled: false, nextRunAt: null });
    r.clock.now = T0 + 60 * MIN;
    expect(await ticker.tick()).toMatchObject([{ jobId: late.id, status: 'missed' }]);
    expect(r.store.get(late.id)).toMatchObject({ enabled: false, nextRunAt: null });
    r.clock.now = T0 + 600 * MIN;
    expect(await ticker.tick()).toEqual([]);
    expect(() => setEnabled(r.store, once.id, true, r.clock.now)).toThrow(/will not run again/);
  });

  // Catches "cron output logged as delivered and dropped": a delivery that fails must fail the run, keep the
  // error, be retried with backoff, deliver exactly once when it can, and stop after max_attempts.
  it('fails a run whose file delivery fails, retries the delivery with backoff, and delivers once', async () => {
    const r = rig(undefined, { max_attempts: 3, retry_backoff_s: 60 });
    // A regular file where the target's folder should be: no user (root included) can write below it.
    const blocker = join(r.temp.dir, 'reports');
    writeFileSync(blocker, 'not a folder');
    const target = join(blocker, 'daily.md');
    const good = join(r.temp.dir, 'ok', 'daily.md');
    const job = r.job('in 1m', [`file:${target}`, `file:${good}`]);
    const ticker = r.ticker();
    ticker.start();
    r.clock.now = T0 + MIN;
    const [first] = await ticker.tick();
    expect(first).toMatchObject({ status: 'failed', attempt: 1 });
    expect(first?.error).toMatch(new RegExp(`delivery failed: file:${target}: Cannot write ${target}`));
    expect(first?.deliveries).toMatchObject([{ target: `file:${target}`, ok: false }, { target: `file:${good}`, ok: true }]);
    expect(readFileSync(good, 'utf8').match(/## /g)).toHaveLength(1);
    expect(r.store.get(job.id)).toMatchObject({ retryAt: T0 + 2 * MIN, retryRunId: first?.id, last: { status: 'failed' } });
    // Not before the backoff has passed.
    r.clock.now = T0 + 90_000;
    expect(await ticker.tick()).toEqual([]);
    r.clock.now = T0 + 2 * MIN;
    const [second] = await ticker.tick();
    expect(second).toMatchObject({ status: 'failed', attempt: 2, trigger: 'retry' });
    expect(r.store.get(job.id).retryAt).toBe(T0 + 2 * MIN + 2 * MIN);
    // The folder becomes writable: the third attempt delivers the same output, without running the job again.
    rmSync(blocker);
    mkdirSync(blocker);
    r.clock.now = T0 + 4 * MIN;
    const [third] = await ticker.tick();
    expect(third).toMatchObject({ status: 'ok', attempt: 3, error: null, output: first?.output });
    expect(third?.deliveries).toMatchObject([{ target: `file:${target}`, ok: true }, { target: `file:${good}`, ok: true, deliveredInRun: first?.id }]);
    expect(r.calls).toHaveLength(1);
    expect(readFileSync(target, 'utf8')).toContain(first?.output ?? '?');
    expect(readFileSync(good, 'utf8').match(/## /g)).toHaveLength(1);
    expect(r.store.get(job.id)).toMatchObject({ retryAt: null, last: { status: 'ok' } });
  });

  // Catches retries that never stop, and a failing job recorded as ok.
  it('gives up after max_attempts when the job itself keeps failing', async () => {
    let calls = 0;
    const r = rig(
      async () => {
        calls += 1;
        throw new Error('model unreachable');
      },
      { max_attempts: 2, retry_backoff_s: 30 },
    );
    const job = r.job('in 1m', ['desktop']);
    const ticker = r.ticker();
    ticker.start();
    r.clock.now = T0 + MIN;
    expect(await ticker.tick()).toMatchObject([{ status: 'failed', error: 'the job failed: model unreachable', deliveries: [] }]);
    r.clock.now = T0 + MIN + 30_000;
    expect(await ticker.tick()).toMatchObject([{ status: 'failed', attempt: 2 }]);
    r.clock.now = T0 + 100 * MIN;
    expect(await ticker.tick()).toEqual([]);
    expect(calls).toBe(2);
    expect(r.store.get(job.id).retryAt).toBeNull();
  });

  // Catches a desktop target silently "delivered" where no desktop app exists.
  it('fails a desktop delivery where no desktop shell is attached', async () => {
    const r = rig();
    const job = r.job('every 1h', ['desktop']);
    const ticker = r.ticker();
    ticker.start();
    const run = await ticker.runNow(job.id);
    expect(run).toMatchObject({ status: 'failed', trigger: 'manual' });
    expect(run.error).toMatch(/desktop notifications are not available here/);
    // A manual run leaves the schedule alone.
    expect(r.store.get(job.id).nextRunAt).toBe(T0 + 60 * MIN);
  });

  // Catches two tickers on one home both running a job (double delivery), and an idle one that never says why.
  it('lets only the lock owner run; the other stays idle, says why, and takes over when the owner stops', async () => {
    const r = rig();
    r.job('every 30m');
    const a = r.ticker();
    const b = r.ticker();
    expect(a.start()).toEqual({ owner: true, running: [] });
    const idle = b.start();
    expect(idle.owner).toBe(false);
    expect(idle.owner === false && idle.reason).toMatch(new RegExp(`another cron ticker owns this HEARTH_HOME: pid ${process.pid}`));
    r.clock.now = T0 + 30 * MIN;
    const [ranB, ranA] = [await b.tick(), await a.tick()];
    expect(ranB).toEqual([]);
    expect(ranA).toHaveLength(1);
    await a.stop();
    r.clock.now = T0 + 60 * MIN;
    expect(await b.tick()).toHaveLength(1);
    expect(b.state().owner).toBe(true);
    expect(r.calls).toHaveLength(2);
  });

  // Catches a lock left by a crashed process blocking cron forever.
  it('takes over a stale lock whose process is gone', async () => {
    const r = rig();
    writeFileSync(join(r.temp.dir, 'cron.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), token: 'dead', since: 1 }));
    expect(r.ticker().start().owner).toBe(true);
    expect(JSON.parse(readFileSync(join(r.temp.dir, 'cron.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  // Catches a hand-edited or corrupt row crashing the list or the ticker (or being skipped without a word).
  it('reports rows that do not read instead of crashing', async () => {
    const r = rig();
    const good = r.job('every 1h');
    const bad = r.job('every 2h');
    r.store.db.prepare('UPDATE cron_jobs SET deliver = ? WHERE id = ?').run('not json', bad.id);
    const worse = r.job('every 3h');
    r.store.db.prepare("UPDATE cron_jobs SET schedule_text = 'whenever' WHERE id = ?").run(worse.id);
    const { jobs, bad: problems } = r.store.list();
    expect(jobs.map((j) => j.id)).toEqual([good.id]);
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        { id: bad.id, problem: expect.stringMatching(/deliver is not JSON/) },
        { id: worse.id, problem: expect.stringMatching(/Cannot read the schedule "whenever"/) },
      ]),
    );
    expect(() => r.store.get(bad.id)).toThrow(/cannot be read: deliver is not JSON/);
    const logs: string[] = [];
    const ticker = r.ticker({ log: (_level, message) => logs.push(message) });
    ticker.start();
    r.clock.now = T0 + 3 * 60 * MIN;
    expect((await ticker.tick()).map((run) => run.jobId)).toEqual([good.id]);
    expect(logs.filter((l) => /cannot be read and is not run/.test(l))).toHaveLength(2);
  });
});

describe('cron ticker (real time)', () => {
  // Catches a timer loop that never wakes for a job (the tick only running while something else pokes it).
  it('runs an ISO one-shot about 1.5 s ahead on its own and delivers it to a file', async () => {
    const temp = createTempStore('hearth-cron-rt-');
    stores.push(temp);
    const store = new CronJobStore(temp.open().db);
    const out = join(temp.dir, 'out.md');
    const at = new Date(Date.now() + 1500).toISOString();
    const job = createJob(store, { schedule: at, prompt: 'say hi', name: 'greeter', deliver: [`file:${out}`] }, { now: Date.now(), defaultTimeZone: 'UTC', cwd: temp.dir });
    const ticker = new CronTicker({ home: temp.dir, store, runner: async () => ({ output: 'hi from cron' }), deliverers: delivererRegistry([fileDeliverer]), settings: CronSection.parse({}), pollMs: 5000 });
    tickers.push(ticker);
    ticker.start();
    const started = Date.now();
    while (store.get(job.id).last === null && Date.now() - started < 8000) await new Promise((resolve) => setTimeout(resolve, 50));
    const [run] = store.history(job.id);
    expect(run).toMatchObject({ status: 'ok', output: 'hi from cron', trigger: 'schedule' });
    expect((run?.startedAt ?? 0) >= Date.parse(at)).toBe(true);
    expect(readFileSync(out, 'utf8')).toMatch(/## greeter \(cron [0-9a-f]{10}, run \d+\) .*\n\nhi from cron\n/);
    expect(store.get(job.id).enabled).toBe(false);
  });
});
