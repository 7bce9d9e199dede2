import type { Db } from './database.js';

/**
 * Store version 12: scheduled jobs and their runs (issue 13, `core/cron/`). This file is the one place their
 * schema lives; `core/cron/job-store.ts` reads and writes them.
 */
export function migrateToV12(db: Db): void {
  db.exec(`
    -- One row per scheduled job. JSON columns hold arrays of strings; a row that does not parse is reported
    -- by the job store (hearth cron list), never dropped silently.
    CREATE TABLE cron_jobs (
      id            TEXT PRIMARY KEY,
      name          TEXT NOT NULL,
      prompt        TEXT NOT NULL,
      schedule_text TEXT NOT NULL,     -- as written: "every 30m", "0 9 * * 1-5", "2026-12-24T18:00:00Z", "in 2h" (resolved: see next_run_at)
      schedule_kind TEXT NOT NULL CHECK (schedule_kind IN ('every', 'cron', 'at')),
      time_zone     TEXT NOT NULL,     -- IANA name the cron expression is read in
      skills        TEXT NOT NULL DEFAULT '[]', -- JSON array of skill names the run loads first
      model         TEXT,              -- model override for the run; NULL: the configured model
      workdir       TEXT,              -- where the run's commands start; NULL: the ticker's workspace
      deliver       TEXT NOT NULL DEFAULT '[]', -- JSON array of delivery targets (file:/path, desktop, telegram:<chat>, ...)
      enabled       INTEGER NOT NULL DEFAULT 1,
      next_run_at   INTEGER,           -- epoch ms of the next scheduled slot; NULL: nothing left to run (a one-shot that ran)
      retry_at      INTEGER,           -- epoch ms a failed run is tried again; NULL: no retry pending
      retry_run_id  INTEGER,           -- the failed run that retry continues (its output is re-delivered)
      last_run_id   INTEGER,
      last_status   TEXT,              -- ok | failed | missed, of the last finished run
      last_run_at   INTEGER,
      last_error    TEXT,
      created_at    INTEGER NOT NULL,
      updated_at    INTEGER NOT NULL
    );
    CREATE INDEX cron_jobs_next ON cron_jobs(next_run_at);

    -- One row per attempt. Written as 'running' when it starts, so a run that died with its process shows
    -- (the next ticker marks it failed). A run is 'ok' only when the job ran and every delivery succeeded.
    CREATE TABLE cron_runs (
      id            INTEGER PRIMARY KEY AUTOINCREMENT,
      job_id        TEXT NOT NULL REFERENCES cron_jobs(id) ON DELETE CASCADE,
      trigger       TEXT NOT NULL CHECK (trigger IN ('schedule', 'manual', 'retry', 'missed')),
      attempt       INTEGER NOT NULL DEFAULT 1,
      scheduled_for INTEGER,           -- the slot this run serves (epoch ms); NULL for a manual run
      started_at    INTEGER NOT NULL,
      finished_at   INTEGER,           -- NULL while running
      status        TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed', 'missed')),
      output        TEXT,              -- the agent's final answer (what was delivered)
      error         TEXT,              -- why it failed or was missed
      deliveries    TEXT NOT NULL DEFAULT '[]', -- JSON array of {target, ok, error?, at}
      session_id    TEXT               -- the agent session that ran it (no foreign key: history outlives sessions)
    );
    CREATE INDEX cron_runs_by_job ON cron_runs(job_id, id);
    CREATE INDEX cron_runs_running ON cron_runs(status) WHERE status = 'running';
  `);
}
