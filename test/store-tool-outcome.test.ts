import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/core/store/database.js';
import { checkFtsIntegrity } from '../src/core/store/fts-schema.js';
import { LATEST_STORE_VERSION, STORE_MIGRATIONS, migrateStore } from '../src/core/store/migrations.js';
import { SqliteSessionStore } from '../src/core/store/session-store.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

/**
 * Store v5 keeps how a tool call ended (`messages.tool_outcome`): a database written before it migrates with its
 * rows intact (their outcome unknown, never invented), and outcomes written after survive a reopen, a branch and
 * redaction. Real encrypted files, real migrations.
 */
let temp: TempStore;
afterEach(() => temp.cleanup());

describe('tool outcomes in the store', () => {
  // Catches a migration that loses rows or breaks the FTS triggers, and old rows read back as "done".
  it('a v4 database migrates: old tool rows read back with no outcome, new ones keep theirs', () => {
    temp = createTempStore('hearth-outcome-');
    const db = openDatabase({ path: temp.path, key: temp.key });
    migrateStore(db, STORE_MIGRATIONS.filter((m) => m.version <= 4));
    db.prepare(`INSERT INTO sessions (id, source, model, started_at, updated_at) VALUES ('old', 'cli', 'm', 0, 0)`).run();
    db.prepare(`INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, created_at) VALUES ('old', 'tool', 'Command not run.', 'c1', 'terminal', 0)`).run();
    expect(migrateStore(db)).toEqual({ from: 4, to: LATEST_STORE_VERSION });
    const store = new SqliteSessionStore(db);
    expect(store.getMessages('old')).toMatchObject([{ role: 'tool', content: 'Command not run.', outcome: null }]);
    checkFtsIntegrity(db);
    db.close();
  });

  // Catches an outcome dropped on write, on a branch copy, or a note that carries a secret in clear.
  it('outcomes survive a reopen and a branch; the note is redacted like the content', () => {
    temp = createTempStore('hearth-outcome-');
    const store = temp.open();
    const session = store.createSession({ source: 'web', model: 'm' });
    store.appendMessage(session.id, { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'terminal', arguments: '{}' }] });
    store.appendMessage(session.id, { role: 'tool', content: 'denied', toolCallId: 'c1', toolName: 'terminal', outcome: { status: 'denied', note: 'deny' } });
    store.appendMessage(session.id, { role: 'user', content: 'next', outcome: { status: 'done' } });
    const reopened = temp.open();
    expect(reopened.getMessages(session.id).map((m) => m.outcome)).toEqual([null, { status: 'denied', note: 'deny' }, null]);
    const branch = reopened.branchSession({ sessionId: session.id, source: 'web' });
    expect(reopened.getMessages(branch.id)[1]?.outcome).toEqual({ status: 'denied', note: 'deny' });

    const secret = 'sk-proj-Abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    const redacting = new SqliteSessionStore(openDatabase({ path: temp.path, key: temp.key }), { redact: (text) => text.replaceAll(secret, '[REDACTED]') });
    const stored = redacting.appendMessage(session.id, { role: 'tool', content: 'x', toolCallId: 'c2', toolName: 'terminal', outcome: { status: 'denied', note: `prompt_failed: ${secret}` } });
    expect(stored.outcome).toEqual({ status: 'denied', note: 'prompt_failed: [REDACTED]' });
    redacting.close();
  });
});
