import type { Db } from './database.js';
import { evidenceExcerpt } from './excerpt.js';

/**
 * Store version 7: who wrote each message, and a user model the user owns.
 *
 * - `messages.origin` (user | model | tool | hearth | copy) and `messages.copied_from`. No foreign key on
 *   `copied_from`: ON DELETE SET NULL would turn a copy into what looks like an original when its parent
 *   session is deleted, and ids are never reused (AUTOINCREMENT), so a dangling id still says "a copy".
 * - `user_facts` rebuilt: status gains `rejected` (the user said "this is wrong"), `source` says whether
 *   the reflection or the user wrote the fact, and evidence becomes `{message_id, session_id, excerpt}`.
 * - `pending_writes.kind` gains `user_model`: the agent's corrections of facts wait for the user.
 */
export function migrateToV7(db: Db): void {
  db.exec(`
    ALTER TABLE messages ADD COLUMN origin TEXT CHECK (origin IN ('user', 'model', 'tool', 'hearth', 'copy'));
    ALTER TABLE messages ADD COLUMN copied_from INTEGER;
  `);
  inferLegacyOrigins(db);
  rebuildUserFacts(db);
  rebuildPendingWrites(db);
}

/** Text Hearth has put in 'user' rows before version 7 (compression summaries, the step-budget request). */
const HEARTH_USER_PREFIXES = ['[Summary of earlier conversation', 'You have reached the limit of steps for this turn'];

/**
 * Legacy rows: the role says model/tool/system; a 'user' row is Hearth's when it starts with one of the
 * fixed texts Hearth wrote or belongs to a subagent/cron session (task prompts); a row of a child session is a copy when its parent holds the same role and
 * text and it was written with the child (a branch keeps the original time; a compression wrote its copies
 * within moments of creating the child). A user retyping the same words later in the child stays `user`.
 * What cannot be inferred (a copy rewritten on the way, e.g. a pruned tool output) keeps its role's origin.
 */
function inferLegacyOrigins(db: Db): void {
  db.exec(`
    UPDATE messages SET origin = CASE role WHEN 'assistant' THEN 'model' WHEN 'tool' THEN 'tool' WHEN 'system' THEN 'hearth' ELSE 'user' END;
  `);
  const hearth = db.prepare<[number, string]>(`UPDATE messages SET origin = 'hearth' WHERE role = 'user' AND substr(content, 1, ?) = ?`);
  for (const prefix of HEARTH_USER_PREFIXES) hearth.run(prefix.length, prefix);
  // Nobody types into a review's, subagent's or cron job's session: its user-role rows are task prompts.
  db.exec(`UPDATE messages SET origin = 'hearth' WHERE role = 'user' AND session_id IN (SELECT id FROM sessions WHERE source IN ('subagent', 'cron'))`);
  db.exec(`
    UPDATE messages AS c SET origin = 'copy', copied_from = (
      SELECT min(p.id) FROM messages p JOIN sessions s ON s.id = c.session_id
      WHERE p.session_id = s.parent_session_id AND p.role = c.role AND p.content = c.content
        AND (p.created_at = c.created_at OR c.created_at <= s.started_at + 2000)
    )
    WHERE c.session_id IN (SELECT id FROM sessions WHERE parent_session_id IS NOT NULL)
      AND EXISTS (
        SELECT 1 FROM messages p JOIN sessions s ON s.id = c.session_id
        WHERE p.session_id = s.parent_session_id AND p.role = c.role AND p.content = c.content
          AND (p.created_at = c.created_at OR c.created_at <= s.started_at + 2000)
      );
  `);
}

function rebuildUserFacts(db: Db): void {
  db.exec(`
    CREATE TABLE user_facts_v7 (
      id            INTEGER PRIMARY KEY AUTOINCREMENT,
      category      TEXT NOT NULL CHECK (category IN ('preference', 'work_pattern', 'expertise', 'instruction', 'background')),
      statement     TEXT NOT NULL,
      confidence    REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
      -- superseded: replaced by a newer fact (superseded_by); rejected: the user said it is wrong.
      status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded', 'rejected')),
      superseded_by INTEGER REFERENCES user_facts_v7(id) ON DELETE SET NULL,
      source        TEXT NOT NULL DEFAULT 'reflection' CHECK (source IN ('reflection', 'user')),
      evidence      TEXT NOT NULL DEFAULT '[]', -- JSON array of {message_id, session_id, excerpt}
      created_at    INTEGER NOT NULL,
      updated_at    INTEGER NOT NULL
    );
  `);
  const rows = db.prepare<[], { id: number; evidence: string }>(`SELECT id, evidence FROM user_facts`).all();
  const message = db.prepare<[number], { session_id: string; content: string }>(`SELECT session_id, content FROM messages WHERE id = ?`);
  db.exec(`
    INSERT INTO user_facts_v7 (id, category, statement, confidence, status, superseded_by, evidence, created_at, updated_at)
    SELECT id, category, statement, confidence, status, superseded_by, '[]', created_at, updated_at FROM user_facts;
  `);
  const setEvidence = db.prepare<[string, number]>(`UPDATE user_facts_v7 SET evidence = ? WHERE id = ?`);
  for (const row of rows) {
    // Version 2 stored bare message ids; the session and an excerpt are looked up once, here. A message
    // deleted since keeps its id with no session or excerpt, so the user still sees the fact had evidence.
    const ids = legacyIds(row.evidence);
    const evidence = ids.map((id) => {
      const m = message.get(id);
      return { message_id: id, session_id: m?.session_id ?? null, excerpt: m === undefined ? '' : evidenceExcerpt(m.content) };
    });
    setEvidence.run(JSON.stringify(evidence), row.id);
  }
  db.exec(`
    DROP TABLE user_facts;
    ALTER TABLE user_facts_v7 RENAME TO user_facts;
    CREATE INDEX user_facts_by_status ON user_facts(status, id);
  `);
}

function legacyIds(text: string): number[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((v): v is number => Number.isInteger(v)) : [];
  } catch {
    // Unreadable evidence was already unusable (version 2 refused to read it); the fact is kept without it.
    return [];
  }
}

function rebuildPendingWrites(db: Db): void {
  db.exec(`
    CREATE TABLE pending_writes_v7 (
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      kind       TEXT NOT NULL CHECK (kind IN ('memory', 'skill', 'user_model')),
      session_id TEXT,
      payload    TEXT NOT NULL, -- the tool arguments as JSON
      summary    TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    INSERT INTO pending_writes_v7 (id, kind, session_id, payload, summary, created_at)
      SELECT id, kind, session_id, payload, summary, created_at FROM pending_writes;
    DROP TABLE pending_writes;
    ALTER TABLE pending_writes_v7 RENAME TO pending_writes;
  `);
}
