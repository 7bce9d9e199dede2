import { HearthError, errorMessage } from '../errors.js';
import type { Db } from './database.js';
import { createMessageFts } from './fts-schema.js';
import { migrateToV7 } from './migrate-v7.js';
import { migrateToV8 } from './migrate-v8.js';
import { migrateToV11 } from './migrate-v11.js';
import { migrateToV12 } from './migrate-v12.js';

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
  {
    version: 2,
    description: 'learning loop: curated memory, user model, skill usage, staged writes, message embeddings',
    up(db) {
      db.exec(`
        -- Curated memory (memory/): the agent's notes ('memory') and the user profile ('user').
        CREATE TABLE memory_entries (
          id         INTEGER PRIMARY KEY AUTOINCREMENT,
          target     TEXT NOT NULL CHECK (target IN ('memory', 'user')),
          content    TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX memory_by_target ON memory_entries(target, id);

        -- User model (user-model/): facts with evidence; contradicted facts are superseded, never deleted.
        CREATE TABLE user_facts (
          id            INTEGER PRIMARY KEY AUTOINCREMENT,
          category      TEXT NOT NULL CHECK (category IN ('preference', 'work_pattern', 'expertise', 'instruction', 'background')),
          statement     TEXT NOT NULL,
          confidence    REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
          status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded')),
          superseded_by INTEGER REFERENCES user_facts(id),
          evidence      TEXT NOT NULL DEFAULT '[]', -- JSON array of messages.id
          created_at    INTEGER NOT NULL,
          updated_at    INTEGER NOT NULL
        );
        CREATE INDEX user_facts_by_status ON user_facts(status, id);

        -- Skill telemetry (skills/usage.ts): the curator and relevance ranking read it.
        CREATE TABLE skill_usage (
          name            TEXT PRIMARY KEY,
          created_by      TEXT NOT NULL DEFAULT 'user' CHECK (created_by IN ('agent', 'user')),
          view_count      INTEGER NOT NULL DEFAULT 0,
          use_count       INTEGER NOT NULL DEFAULT 0,
          patch_count     INTEGER NOT NULL DEFAULT 0,
          created_at      INTEGER,
          last_used_at    INTEGER,
          last_patched_at INTEGER,
          archived_at     INTEGER,
          pinned          INTEGER NOT NULL DEFAULT 0
        );

        -- Writes staged for the user's approval (memory.write_approval, skills.write_approval).
        CREATE TABLE pending_writes (
          id         INTEGER PRIMARY KEY AUTOINCREMENT,
          kind       TEXT NOT NULL CHECK (kind IN ('memory', 'skill')),
          session_id TEXT,
          payload    TEXT NOT NULL, -- the tool arguments as JSON
          summary    TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );

        -- Semantic search (search/): one vector per message per embedding model.
        CREATE TABLE message_embeddings (
          message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
          model      TEXT NOT NULL,
          vector     BLOB NOT NULL, -- little-endian float32
          PRIMARY KEY (message_id, model)
        );

        -- Small durable counters and cursors (reflection cursor, curator last run, nudge counters).
        CREATE TABLE learning_state (
          key   TEXT PRIMARY KEY,
          value TEXT NOT NULL
        );
      `);
    },
  },
  {
    version: 3,
    description: 'skill embeddings for semantic skill ranking',
    up: (db) => {
      db.exec(`
        -- One vector per embedded skill text per embedding model (skills/skill-vectors.ts). Keyed by a hash of
        -- the exact text, so an edit re-embeds only what changed and renames cost nothing.
        CREATE TABLE skill_embeddings (
          model        TEXT NOT NULL, -- '<embedder id>#<dimensions>', as message_embeddings.model
          content_hash TEXT NOT NULL, -- sha256 (hex) of the exact text embedded
          vector       BLOB NOT NULL, -- little-endian float32, unit length
          PRIMARY KEY (model, content_hash)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 4,
    description: 'approval audit log',
    up: (db) => {
      db.exec(`
        -- Every action the approval policy checked and what became of it (safety/approvals/audit-log.ts).
        CREATE TABLE approval_log (
          id          INTEGER PRIMARY KEY,
          at          INTEGER NOT NULL,  -- epoch ms
          session_id  TEXT NOT NULL,
          kind        TEXT NOT NULL,     -- command | file_write | self_modification
          origin      TEXT NOT NULL,     -- user | subagent | cron
          command     TEXT NOT NULL,     -- secrets redacted
          verdict     TEXT NOT NULL,     -- safe | dangerous | hardline
          reasons     TEXT NOT NULL,     -- JSON array of detector reasons
          approved    INTEGER NOT NULL,
          decision    TEXT NOT NULL,     -- why: once, session, always, deny, safe, yolo, hardline, timeout, smart_approved, …
          judged      TEXT               -- the smart-mode judge's verdict, when it was asked
        );
        CREATE INDEX approval_log_at ON approval_log(at);
      `);
    },
  },
  {
    version: 5,
    description: 'tool call outcomes',
    up: (db) => {
      // How a tool call ended (done, denied, timed out…) and what decided its approval, as JSON
      // {status, note?} (shared/events.ts ToolOutcome). The result text alone cannot tell a denial from a
      // failure or a success, and a reopened session must not show a refused command as done. NULL on rows
      // written before this version and on every other role. Not indexed for search: the FTS triggers list
      // their columns, so this column stays out of them.
      db.exec(`ALTER TABLE messages ADD COLUMN tool_outcome TEXT`);
    },
  },
  {
    version: 6,
    description: 'learning journal: every background review, flush, reflection and curator run',
    up: (db) => {
      db.exec(`
        -- One row per background learning run (learning/journal.ts), written when it starts and completed when it
        -- ends, so a run that died with the process still shows as started. No foreign key on session_id: the
        -- journal outlives the sessions it names, and a curator run has none.
        CREATE TABLE learning_runs (
          id          INTEGER PRIMARY KEY,
          kind        TEXT NOT NULL,     -- memory_review | skill_review | combined_review | flush | reflection | curator
          session_id  TEXT,
          started_at  INTEGER NOT NULL,  -- epoch ms
          ended_at    INTEGER,           -- NULL while running (or when the process died mid-run)
          outcome     TEXT,              -- saved | nothing | failed | refused | cancelled; NULL while running
          saved       TEXT NOT NULL DEFAULT '[]', -- JSON array of what was saved, as the user was told
          refused     TEXT NOT NULL DEFAULT '[]', -- JSON array of {tool, reason}: writes that errored or were refused
          error       TEXT,              -- why the run failed
          detail      TEXT               -- JSON object of kind-specific counts (reflection: added/reinforced/superseded)
        );
        CREATE INDEX learning_runs_started ON learning_runs(started_at);
      `);
    },
  },
  {
    version: 7,
    description: 'message provenance (origin, copied_from); user facts the user can reject; user-model pending writes',
    up: migrateToV7,
  },
  {
    version: 8,
    description: 'memory entry provenance (author, via) and protection; memory_changes: the agent\'s removals and replacements, for undo',
    up: migrateToV8,
  },
  {
    version: 9,
    description: 'skill_triggers: learned "when to use" phrasings per skill version, for skill ranking',
    up: (db) => {
      db.exec(`
        -- skills/skill-triggers.ts. Keyed by the hash of the skill's text (name, description, tags, category,
        -- body): an edit gives a new row, an unchanged skill is never asked about twice. A failed attempt is a
        -- row too (triggers NULL, error set), so it is reported and retried later instead of lost.
        CREATE TABLE skill_triggers (
          content_hash TEXT PRIMARY KEY,
          skill_name   TEXT NOT NULL,
          model        TEXT NOT NULL,
          triggers     TEXT,              -- JSON array of phrasings; NULL when the latest attempt failed
          error        TEXT,              -- why the latest attempt failed; NULL on success
          attempts     INTEGER NOT NULL DEFAULT 1,
          updated_at   INTEGER NOT NULL   -- epoch ms
        );
        CREATE INDEX skill_triggers_name ON skill_triggers(skill_name);
      `);
    },
  },
  {
    version: 10,
    description: 'sessions.last_error: why the last turn failed, so failed runs are marked and can be cleared',
    up: (db) => {
      db.exec(`ALTER TABLE sessions ADD COLUMN last_error TEXT; -- NULL when the last turn ended normally (or none ran)`);
    },
  },
  {
    version: 11,
    description: 'gateway: DM pairing, platform cursors, seen message ids, chat sessions',
    up: migrateToV11,
  },
  {
    version: 12,
    description: 'cron: jobs and their runs',
    up: migrateToV12,
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
