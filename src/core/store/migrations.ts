import { HearthError, errorMessage } from '../errors.js';
import type { Db } from './database.js';
import { createMessageFts } from './fts-schema.js';

/**
 * Versioned schema migrations, tracked by `PRAGMA user_version`. Each runs in its own transaction
 * together with the version bump, so a crash leaves the database at the previous version, never
 * half-migrated. Append new steps; never edit a released one.
 */
export interface StoreMigration {
  version: number;
  description: string;
  up(db: Db): void;
}

export const STORE_MIGRATIONS: readonly StoreMigration[] = [
  {
    version: 1,
    description: 'sessions, messages, FTS5 (stemmed + trigram) over messages',
    up(db) {
      db.exec(`
        CREATE TABLE sessions (
          id                TEXT PRIMARY KEY,
          source            TEXT NOT NULL,
          model             TEXT NOT NULL,
          title             TEXT,
          parent_session_id TEXT REFERENCES sessions(id) ON DELETE SET NULL,
          started_at        INTEGER NOT NULL,
          updated_at        INTEGER NOT NULL,
          ended_at          INTEGER,
          input_tokens      INTEGER NOT NULL DEFAULT 0,
          output_tokens     INTEGER NOT NULL DEFAULT 0,
          message_count     INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX sessions_by_updated ON sessions(updated_at DESC);
        CREATE INDEX sessions_by_parent ON sessions(parent_session_id);

        -- AUTOINCREMENT: ids are never reused after a delete, so the FTS rowid and any reference
        -- to a message (memory evidence, search hits) keep pointing at the same message.
        CREATE TABLE messages (
          id            INTEGER PRIMARY KEY AUTOINCREMENT,
          session_id    TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
          role          TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
          content       TEXT NOT NULL,
          tool_calls    TEXT,
          tool_call_id  TEXT,
          tool_name     TEXT,
          reasoning     TEXT,
          input_tokens  INTEGER,
          output_tokens INTEGER,
          created_at    INTEGER NOT NULL
        );
        CREATE INDEX messages_by_session ON messages(session_id, id);
      `);
      createMessageFts(db);
    },
  },
];

export const LATEST_STORE_VERSION = STORE_MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/** Apply every migration newer than the database's `user_version`. Returns the versions before and after. */
export function migrateStore(db: Db, migrations: readonly StoreMigration[] = STORE_MIGRATIONS): { from: number; to: number } {
  const from = Number(db.pragma('user_version', { simple: true }));
  const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  if (from > latest) {
    throw new HearthError('db_io', `The database is at schema version ${from}, newer than this Hearth understands (${latest}). Upgrade Hearth.`, {
      details: { from, latest },
    });
  }
  const pending = [...migrations].filter((m) => m.version > from).sort((a, b) => a.version - b.version);
  for (const migration of pending) {
    try {
      db.transaction(() => {
        migration.up(db);
        db.pragma(`user_version = ${migration.version}`);
      }).immediate();
    } catch (err) {
      throw new HearthError('db_io', `Database migration to version ${migration.version} (${migration.description}) failed and was rolled back: ${errorMessage(err)}`, {
        cause: err,
        details: { version: migration.version },
      });
    }
  }
  return { from, to: pending.at(-1)?.version ?? from };
}
