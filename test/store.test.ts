import Database from 'better-sqlite3-multiple-ciphers';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HearthError } from '../src/core/errors.js';
import { openDatabase } from '../src/core/store/database.js';
import { newSessionId } from '../src/core/store/session-store.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

let temp: TempStore;
beforeEach(() => {
  temp = createTempStore();
});
afterEach(() => {
  temp.cleanup();
});

/** Every file SQLite may have written for the database: main file, WAL, shared memory, rollback journal. */
function databaseFiles(): string[] {
  return readdirSync(temp.dir)
    .filter((name) => name.startsWith('state.db'))
    .map((name) => join(temp.dir, name));
}

/** Does `needle` appear in any database file, as UTF-8 or UTF-16 (both SQLite text encodings)? */
function plaintextFound(needle: string): boolean {
  const forms = [Buffer.from(needle, 'utf8'), Buffer.from(needle, 'utf16le'), Buffer.from(needle, 'utf16le').swap16()];
  return databaseFiles().some((file) => {
    const bytes = readFileSync(file);
    return forms.some((form) => bytes.includes(form));
  });
}

function thrown(run: () => unknown): HearthError {
  try {
    run();
  } catch (err) {
    if (err instanceof HearthError) return err;
    throw err;
  }
  throw new Error('expected a HearthError');
}

describe('encryption at rest', () => {
  it('leaves no plaintext message text in state.db, its WAL or journal, open or closed', () => {
    const sentinel = `hearth-sentinel-${randomBytes(8).toString('hex')}`;
    const cjkSentinel = `机密哨兵${randomBytes(2).toString('hex')}`;
    const store = temp.open();
    const session = store.createSession({ source: 'cli', model: 'local:test.gguf', title: `title ${sentinel}` });
    store.appendMessage(session.id, { role: 'user', content: `please remember ${sentinel} and ${cjkSentinel}` });
    store.appendMessage(session.id, {
      role: 'assistant',
      content: 'noted',
      reasoning: `thinking about ${sentinel}`,
      toolCalls: [{ id: 'c1', name: 'write_file', arguments: JSON.stringify({ path: `/tmp/${sentinel}.txt`, content: sentinel }) }],
    });
    store.appendMessage(session.id, { role: 'tool', content: `wrote ${sentinel}`, toolCallId: 'c1', toolName: 'write_file' });

    // While open, recent pages live in the WAL: this is where a plaintext leak would show first.
    expect(existsSync(`${temp.path}-wal`)).toBe(true);
    expect(plaintextFound(sentinel)).toBe(false);
    expect(plaintextFound(cjkSentinel)).toBe(false);
    store.close();
    expect(plaintextFound(sentinel)).toBe(false);
    expect(plaintextFound(cjkSentinel)).toBe(false);

    // Positive control: with the right key the text is there and searchable.
    const reopened = temp.open();
    const messages = reopened.getMessages(session.id);
    expect(messages[0]?.content).toContain(sentinel);
    expect(messages[1]?.reasoning).toContain(sentinel);
    expect(reopened.search(sentinel).map((hit) => hit.messageId)).toContain(messages[0]?.id);
  });

  it('the plaintext scan itself detects text in an unencrypted database (so the test above can fail)', () => {
    const sentinel = `hearth-sentinel-${randomBytes(8).toString('hex')}`;
    const plain = new Database(temp.path);
    plain.exec('CREATE TABLE t (x TEXT)');
    plain.prepare('INSERT INTO t VALUES (?)').run(sentinel);
    plain.close();
    expect(plaintextFound(sentinel)).toBe(true);
  });

  it('rejects a wrong key with db_wrong_key, without revealing either key', () => {
    temp.open().close();
    const wrong = randomBytes(32);
    const err = thrown(() => openDatabase({ path: temp.path, key: wrong }));
    expect(err.code).toBe('db_wrong_key');
    expect(err.message).toContain('HEARTH_DB_KEY');
    expect(err.message).not.toContain(wrong.toString('hex'));
    expect(err.message).not.toContain(temp.key.toString('hex'));
  });

  it('reports an unencrypted SQLite file as db_wrong_key rather than crashing', () => {
    const plain = new Database(temp.path);
    plain.exec('CREATE TABLE t (x)');
    plain.close();
    expect(thrown(() => openDatabase({ path: temp.path, key: temp.key })).code).toBe('db_wrong_key');
  });

  it('reports an unopenable path as db_io and a short key as db_key_invalid', () => {
    expect(thrown(() => openDatabase({ path: join(temp.dir, 'missing-dir', 'state.db'), key: temp.key })).code).toBe('db_io');
    expect(thrown(() => openDatabase({ path: temp.path, key: randomBytes(16) })).code).toBe('db_key_invalid');
  });

  it('runs in WAL mode with foreign keys and fsync-on-commit (catches a pragma silently not applied)', () => {
    const db = openDatabase({ path: temp.path, key: temp.key });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    db.close();
  });
});

describe('sessions and messages', () => {
  it('round-trips every message field', () => {
    const store = temp.open();
    const session = store.createSession({ source: 'cli', model: 'openai:gpt-4o-mini' });
    const toolCalls = [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' }];
    store.appendMessage(session.id, { role: 'system', content: 'be brief' });
    store.appendMessage(session.id, { role: 'user', content: 'read a.txt', inputTokens: 12 });
    store.appendMessage(session.id, { role: 'assistant', content: '', toolCalls, reasoning: 'need the file', outputTokens: 9 });
    store.appendMessage(session.id, { role: 'tool', content: 'hello', toolCallId: 'call_1', toolName: 'read_file' });

    const messages = temp.open().getMessages(session.id);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[1]).toMatchObject({ content: 'read a.txt', inputTokens: 12, outputTokens: null, toolCalls: null });
    expect(messages[2]).toMatchObject({ toolCalls, reasoning: 'need the file', outputTokens: 9 });
    expect(messages[3]).toMatchObject({ toolCallId: 'call_1', toolName: 'read_file', content: 'hello' });
    expect(messages.every((m) => m.sessionId === session.id && m.createdAt > 0)).toBe(true);
    expect(store.getSession(session.id)?.messageCount).toBe(4);
  });

  it('tracks usage, title, end time, parent and listing order', () => {
    const store = temp.open();
    const parent = store.createSession({ source: 'desktop', model: 'local:m.gguf', title: 'first' });
    const child = store.createSession({ source: 'subagent', model: 'local:m.gguf', parentSessionId: parent.id });
    store.addUsage(parent.id, { inputTokens: 100, outputTokens: 20 });
    store.addUsage(parent.id, { inputTokens: 50, outputTokens: 5 });
    store.setTitle(child.id, 'renamed');
    store.endSession(parent.id);

    const reread = store.getSession(parent.id);
    expect(reread).toMatchObject({ inputTokens: 150, outputTokens: 25, title: 'first', source: 'desktop' });
    expect(reread?.endedAt).not.toBeNull();
    expect(store.getSession(child.id)).toMatchObject({ title: 'renamed', parentSessionId: parent.id });
    const listed = store.listSessions();
    expect(listed.map((s) => s.id).sort()).toEqual([parent.id, child.id].sort());
    expect(listed.map((s) => s.updatedAt)).toEqual(listed.map((s) => s.updatedAt).sort((a, b) => b - a)); // most recent first
    expect(store.listSessions({ limit: 1 })).toHaveLength(1);
    expect(store.getSession('no-such-session')).toBeNull();
  });

  it('refuses writes to a missing session with session_not_found and stores nothing', () => {
    const store = temp.open();
    expect(thrown(() => store.appendMessage('missing', { role: 'user', content: 'lost?' })).code).toBe('session_not_found');
    expect(thrown(() => store.addUsage('missing', { inputTokens: 1, outputTokens: 1 })).code).toBe('session_not_found');
    expect(thrown(() => store.createSession({ source: 'cli', model: 'x', parentSessionId: 'missing' })).code).toBe('session_not_found');
    expect(store.search('lost')).toEqual([]);
  });

  it('appends a batch in one transaction: all stored in order, or none when the session is missing', () => {
    const store = temp.open();
    const session = store.createSession({ source: 'cli', model: 'x' });
    const stored = store.appendMessages(session.id, [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'second' },
    ]);
    expect(stored.map((m) => m.content)).toEqual(['first', 'second']);
    expect(store.getSession(session.id)?.messageCount).toBe(2);
    expect(thrown(() => store.appendMessages('missing', [{ role: 'user', content: 'orphan' }])).code).toBe('session_not_found');
    expect(store.search('orphan')).toEqual([]);
  });

  it('rejects a duplicate explicit session id as a typed error', () => {
    const store = temp.open();
    store.createSession({ id: 'fixed', source: 'api', model: 'x' });
    expect(thrown(() => store.createSession({ id: 'fixed', source: 'api', model: 'x' })).code).toBe('usage');
  });

  it('never reuses a message id after a delete (catches FTS rowids pointing at the wrong message)', () => {
    const store = temp.open();
    const session = store.createSession({ source: 'cli', model: 'x' });
    const first = store.appendMessage(session.id, { role: 'user', content: 'one' });
    const second = store.appendMessage(session.id, { role: 'user', content: 'two' });
    const db = openDatabase({ path: temp.path, key: temp.key });
    db.prepare('DELETE FROM messages WHERE id = ?').run(second.id);
    db.close();
    const third = store.appendMessage(session.id, { role: 'user', content: 'three' });
    expect(second.id).toBeGreaterThan(first.id);
    expect(third.id).toBeGreaterThan(second.id);
  });

  it('mints time-sortable random session ids', () => {
    const id = newSessionId(new Date('2025-01-31T14:25:01Z'));
    expect(id).toMatch(/^20250131-142501-[0-9a-f]{6}$/);
    expect(newSessionId()).not.toBe(newSessionId());
  });
});
