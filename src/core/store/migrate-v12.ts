import type { Db } from './database.js';

/**
 * Store version 12: scheduled jobs and their runs (issue 13, `core/cron/`). This file is the one place their
 * schema lives.
 */
export function migrateToV12(db: Db): void {
  db.exec(`
    CREATE TABLE cron_jobs (
      id         TEXT PRIMARY KEY,
      created_at INTEGER NOT NULL
    );
  `);
}
