import type { Db } from './database.js';

/**
 * Store version 8: who wrote each curated memory entry, whether only the user may change it, and a
 * journal of the agent's removals and replacements so each can be undone.
 *
 * - `memory_entries.author` (user | agent; NULL for entries written before version 8: nobody can tell),
 *   `via` (how: app | cli | import | confirmed | tool | legacy) and `protected` (0/1).
 * - Legacy entries of the user profile become protected, memory notes do not (decision 0012): the profile is
 *   where standing rules live and a wrong "protected" only makes the agent ask, while a wrong "unprotected"
 *   is how the issue-11 rule was lost.
 * - `memory_changes`: one row per removal or replacement the agent made, with the old text and provenance.
 *   No foreign key on `entry_id`: after a removal the entry is gone, and undo re-inserts it under the same id
 *   (AUTOINCREMENT never hands an id out twice, so it is still free and the entry returns to its place).
 */
export function migrateToV8(db: Db): void {
  db.exec(`
    ALTER TABLE memory_entries ADD COLUMN author TEXT CHECK (author IN ('user', 'agent'));
    ALTER TABLE memory_entries ADD COLUMN via TEXT NOT NULL DEFAULT 'legacy' CHECK (via IN ('app', 'cli', 'import', 'confirmed', 'tool', 'legacy'));
    ALTER TABLE memory_entries ADD COLUMN protected INTEGER NOT NULL DEFAULT 0 CHECK (protected IN (0, 1));
    UPDATE memory_entries SET protected = 1 WHERE target = 'user';

    CREATE TABLE memory_changes (
      id             INTEGER PRIMARY KEY AUTOINCREMENT,
      entry_id       INTEGER NOT NULL,
      target         TEXT NOT NULL CHECK (target IN ('memory', 'user')),
      action         TEXT NOT NULL CHECK (action IN ('removed', 'replaced')),
      old_content    TEXT NOT NULL,
      new_content    TEXT,             -- replaced only
      old_author     TEXT,
      old_via        TEXT NOT NULL,
      old_protected  INTEGER NOT NULL,
      old_created_at INTEGER NOT NULL,
      session_id     TEXT,             -- the session (or background review) whose memory tool made the change
      created_at     INTEGER NOT NULL,
      undone_at      INTEGER           -- set once the user undid it
    );
    CREATE INDEX memory_changes_recent ON memory_changes(created_at);
  `);
}
