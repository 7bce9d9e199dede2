import type { Db } from './database.js';

/**
 * Store version 11: the gateway's durable state (issue 13). The tables are written by the gateway work
 * (`core/gateway/`); this file is the one place their schema lives.
 */
export function migrateToV11(db: Db): void {
  db.exec(`
    -- core/gateway/cursors: each adapter's cursor (Telegram update offset, Discord session/sequence, ...).
    CREATE TABLE gateway_cursors (
      platform   TEXT NOT NULL,
      key        TEXT NOT NULL,
      value      TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (platform, key)
    );
  `);
}
