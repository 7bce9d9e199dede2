import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/core/store/database.js';
import { STORE_MIGRATIONS, migrateStore } from '../src/core/store/migrations.js';
import { SqliteSessionStore } from '../src/core/store/session-store.js';
import { UserFactStore } from '../src/core/user-model/facts.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

/**
 * Store version 7 on a database written by an older Hearth (version 6): origins inferred for legacy rows,
 * user facts and staged writes kept through the table rebuilds. Catches a migration that marks a legacy
 * compression summary or copy as user-typed (the reflection would then read it), or one that loses facts.
 */
let temp: TempStore;
let db: Db;
beforeEach(() => {
  temp = createTempStore('hearth-migrate-v7-');
  db = openDatabase({ path: temp.path, key: temp.key });
  migrateStore(db, STORE_MIGRATIONS.filter((m) => m.version < 7));
});
afterEach(() => {
  if (db.open) db.close();
  temp.cleanup();
});

function legacyMessage(session: string, role: string, content: string, createdAt: number): number {
  const row = db
    .prepare<[string, string, string, number], { id: number }>(`INSERT INTO messages (session_id, role, content, created_at) VALUES (?, ?, ?, ?) RETURNING id`)
    .get(session, role, content, createdAt);
  return row?.id ?? 0;
}

describe('store version 7 on a version-6 database', () => {
  it('infers origins: role, Hearth texts in user rows, copies in child sessions; the user retyping later stays user', () => {
    db.exec(`INSERT INTO sessions (id, source, model, started_at, updated_at) VALUES ('p', 'cli', 'm', 1000, 1000)`);
    db.exec(`INSERT INTO sessions (id, source, model, parent_session_id, started_at, updated_at) VALUES ('c', 'cli', 'm', 'p', 50000, 50000)`);
    const typed = legacyMessage('p', 'user', 'yes', 1100);
    const answer = legacyMessage('p', 'assistant', 'Done.', 1200);
    const tool = legacyMessage('p', 'tool', 'ok', 1300);
    const copyOfTyped = legacyMessage('c', 'user', 'yes', 50001);
    const summary = legacyMessage('c', 'user', '[Summary of earlier conversation: 3 earlier messages were condensed]\n\nThe user said yes.', 50002);
    const copyOfAnswer = legacyMessage('c', 'assistant', 'Done.', 50003);
    const retyped = legacyMessage('c', 'user', 'yes', 90000);
    db.exec(`INSERT INTO sessions (id, source, model, started_at, updated_at) VALUES ('cron-1', 'cron', 'm', 1000, 1000)`);
    const cronPrompt = legacyMessage('cron-1', 'user', 'Summarise the feeds.', 1001);
    const fact = db.prepare(`INSERT INTO user_facts (category, statement, confidence, evidence, created_at, updated_at) VALUES ('preference', 'The user says yes.', 0.8, ?, 1, 1) RETURNING id`).get(JSON.stringify([typed, 424242])) as { id: number };
    db.exec(`INSERT INTO pending_writes (kind, payload, summary, created_at) VALUES ('memory', '{}', 'memory add', 1)`);

    expect(migrateStore(db).to).toBeGreaterThanOrEqual(7);
    const store = new SqliteSessionStore(db);
    const origin = (id: number) => {
      const [m] = store.getMessagesById([id]);
      return [m?.origin, m?.copiedFrom];
    };
    expect([typed, answer, tool].map(origin)).toEqual([
      ['user', null],
      ['model', null],
      ['tool', null],
    ]);
    expect(origin(copyOfTyped)).toEqual(['copy', typed]);
    expect(origin(summary)).toEqual(['hearth', null]);
    expect(origin(copyOfAnswer)).toEqual(['copy', answer]);
    expect(origin(retyped)).toEqual(['user', null]);
    expect(origin(cronPrompt)).toEqual(['hearth', null]);

    // Facts survive the rebuild; bare evidence ids gain their session and an excerpt (none for a deleted message).
    const facts = new UserFactStore(db);
    expect(facts.get(fact.id)).toMatchObject({
      statement: 'The user says yes.',
      status: 'active',
      source: 'reflection',
      evidence: [
        { messageId: typed, sessionId: 'p', excerpt: 'yes' },
        { messageId: 424242, sessionId: null, excerpt: '' },
      ],
    });
    // The rebuilt tables take the new values their CHECKs allow, and keep what was staged.
    expect(facts.reject(fact.id).status).toBe('rejected');
    db.exec(`INSERT INTO pending_writes (kind, payload, summary, created_at) VALUES ('user_model', '{}', 'user model: delete', 2)`);
    expect(db.prepare(`SELECT kind FROM pending_writes ORDER BY id`).all()).toEqual([{ kind: 'memory' }, { kind: 'user_model' }]);
  });
});
