import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { HearthError, errorMessage } from '../errors.js';
import { ToolOutcome } from '../../shared/events.js';
import type { Usage } from '../llm/types.js';
import type { Db } from './database.js';
import { MessageSearch } from './message-search.js';
import { redactMessage, type TextRedactor } from './redact-message.js';
import type { BranchSession, MessageOrigin, NewMessage, NewSession, SearchHit, SessionRecord, SessionStore, StoredMessage } from './types.js';

interface SessionRow {
  id: string;
  source: SessionRecord['source'];
  model: string;
  title: string | null;
  parent_session_id: string | null;
  started_at: number;
  updated_at: number;
  ended_at: number | null;
  input_tokens: number;
  output_tokens: number;
  message_count: number;
  last_error: string | null;
  has_reply: 0 | 1;
}

interface MessageRow {
  id: number;
  session_id: string;
  role: StoredMessage['role'];
  content: string;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  reasoning: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  created_at: number;
  tool_outcome: string | null;
  origin: StoredMessage['origin'] | null;
  copied_from: number | null;
}

/** Stored JSON is parsed through a schema like any other input (STYLE.md: types from schemas). */
const StoredToolCalls = z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() }));

/** `has_reply`: whether the model ever answered in the session (a failed first run did not); messages_by_session finds it. */
const SESSION_COLUMNS =
  "id, source, model, title, parent_session_id, started_at, updated_at, ended_at, input_tokens, output_tokens, message_count, last_error, EXISTS (SELECT 1 FROM messages WHERE messages.session_id = sessions.id AND messages.role = 'assistant') AS has_reply";
const MESSAGE_COLUMNS = 'id, session_id, role, content, tool_calls, tool_call_id, tool_name, reasoning, input_tokens, output_tokens, created_at, tool_outcome, origin, copied_from';

/**
 * Sessions and messages in the encrypted database. Every method runs in its own transaction that has
 * committed when it returns (WAL + synchronous=FULL), so a killed process loses nothing already appended.
 *
 * Token totals on a session come from `addUsage` (one call per model response); the per-message
 * `inputTokens`/`outputTokens` are recorded on the message only, so nothing is counted twice.
 */
export class SqliteSessionStore implements SessionStore {
  private readonly searcher: MessageSearch;
  private readonly statements;
  private redact: TextRedactor | null;

  constructor(
    /** The open database, for the stores that share it (memory, user model, skill usage, embeddings). */
    readonly db: Db,
    options: { rankWindow?: number; redact?: TextRedactor } = {},
  ) {
    this.redact = options.redact ?? null;
    this.searcher = new MessageSearch(db, options.rankWindow);
    this.statements = {
      insertSession: db.prepare(`INSERT INTO sessions (id, source, model, title, parent_session_id, started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
      getSession: db.prepare<[string], SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`),
      listSessions: db.prepare<[number, number], SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`),
      insertMessage: db.prepare<unknown[], MessageRow>(
        `INSERT INTO messages (session_id, role, content, tool_calls, tool_call_id, tool_name, reasoning, input_tokens, output_tokens, created_at, tool_outcome, origin, copied_from)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${MESSAGE_COLUMNS}`,
      ),
      countMessages: db.prepare(`UPDATE sessions SET message_count = message_count + ?, updated_at = ? WHERE id = ?`),
      getMessages: db.prepare<[string], MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? ORDER BY id`),
      addUsage: db.prepare(`UPDATE sessions SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?`),
      setTitle: db.prepare(`UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?`),
      setLastError: db.prepare(`UPDATE sessions SET last_error = ? WHERE id = ?`),
      // A failed run that holds no model reply: the user's message and an error, nothing else worth keeping.
      failedWithoutReply: db.prepare<[], SessionRow>(
        `SELECT ${SESSION_COLUMNS} FROM sessions WHERE last_error IS NOT NULL AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = sessions.id AND m.role = 'assistant') ORDER BY updated_at DESC`,
      ),
      endSession: db.prepare(`UPDATE sessions SET ended_at = coalesce(ended_at, ?), updated_at = ? WHERE id = ?`),
      messagesById: db.prepare<[string], MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`),
      deleteMessages: db.prepare<[string]>(`DELETE FROM messages WHERE session_id = ?`),
      deleteSession: db.prepare<[string]>(`DELETE FROM sessions WHERE id = ?`),
      messageInSession: db.prepare<[number, string], { id: number }>(`SELECT id FROM messages WHERE id = ? AND session_id = ?`),
      copyMessages: db.prepare<[string, string, number]>(
        // A branch's messages are copies: the learning loop has read the originals already.
        `INSERT INTO messages (session_id, role, content, tool_calls, tool_call_id, tool_name, reasoning, input_tokens, output_tokens, created_at, tool_outcome, origin, copied_from)
         SELECT ?, role, content, tool_calls, tool_call_id, tool_name, reasoning, input_tokens, output_tokens, created_at, tool_outcome, 'copy', id
         FROM messages WHERE session_id = ? AND id <= ? ORDER BY id`,
      ),
      // The branch's totals are what its copied messages recorded, so its cost reads as its own history.
      totalsFromMessages: db.prepare<[string, string, string, number, string]>(
        `UPDATE sessions SET
           message_count = (SELECT count(*) FROM messages WHERE session_id = ?),
           input_tokens = (SELECT coalesce(sum(input_tokens), 0) FROM messages WHERE session_id = ?),
           output_tokens = (SELECT coalesce(sum(output_tokens), 0) FROM messages WHERE session_id = ?),
           updated_at = ?
         WHERE id = ?`,
      ),
    };
  }

  createSession(input: NewSession): SessionRecord {
    const now = Date.now();
    if (input.parentSessionId !== undefined && !this.getSession(input.parentSessionId)) {
      throw new HearthError('session_not_found', `Parent session ${input.parentSessionId} does not exist.`);
    }
    const id = input.id ?? newSessionId(new Date(now));
    try {
      this.statements.insertSession.run(id, input.source, input.model, input.title ?? null, input.parentSessionId ?? null, now, now);
    } catch (err) {
      if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new HearthError('usage', `A session with id ${id} already exists.`, { cause: err });
      }
      throw storeError('create a session', err);
    }
    return this.requireSession(id);
  }

  /**
   * Secret redaction for what is written from now on: message content, tool call arguments and reasoning
   * (never ids, roles or tool names). `null` turns it off. Messages already stored are left as they are.
   */
  setRedactor(redact: TextRedactor | null): void {
    this.redact = redact;
  }

  getSession(id: string): SessionRecord | null {
    const row = this.statements.getSession.get(id);
    return row ? toSession(row) : null;
  }

  listSessions(options: { limit?: number; offset?: number } = {}): SessionRecord[] {
    return this.statements.listSessions.all(options.limit ?? 50, options.offset ?? 0).map(toSession);
  }

  appendMessage(sessionId: string, message: NewMessage): StoredMessage {
    const [stored] = this.appendMessages(sessionId, [message]);
    if (!stored) throw new HearthError('db_io', `Appending to session ${sessionId} returned no row.`);
    return stored;
  }

  /**
   * Append several messages in one transaction (importers, bulk loads): all or nothing. Faster than a
   * loop of `appendMessage`, which commits (and fsyncs) each message on its own.
   */
  appendMessages(sessionId: string, messages: readonly NewMessage[]): StoredMessage[] {
    const now = Date.now();
    // Redacted before the write lock is taken: the scan is the slow part.
    const redact = this.redact;
    const toStore = redact === null ? messages : messages.map((message) => redactMessage(message, redact));
    const insertAll = this.db.transaction(() => {
      // The session check and the inserts commit together or not at all.
      if (this.statements.countMessages.run(toStore.length, now, sessionId).changes === 0) {
        throw new HearthError('session_not_found', `Cannot append to session ${sessionId}: no such session.`);
      }
      const source = this.statements.getSession.get(sessionId)?.source;
      const taskPrompts = source !== undefined && TASK_SOURCES.has(source);
      return toStore.map((message) => this.statements.insertMessage.get(...messageValues(sessionId, taskPrompts ? asTaskPrompt(message) : message, now)));
    });
    let rows: (MessageRow | undefined)[];
    try {
      rows = insertAll.immediate();
    } catch (err) {
      if (err instanceof HearthError) throw err;
      throw storeError(`append to session ${sessionId}`, err);
    }
    return rows.map((row) => {
      if (!row) throw new HearthError('db_io', `Appending to session ${sessionId} returned no row.`);
      return toMessage(row);
    });
  }

  getMessages(sessionId: string): StoredMessage[] {
    return this.statements.getMessages.all(sessionId).map(toMessage);
  }

  appendContinuation(sessionId: string, parentId: string, messages: readonly NewMessage[]): StoredMessage[] {
    return this.appendMessages(sessionId, withCopyOrigins(this.getMessages(parentId), messages));
  }

  addUsage(sessionId: string, usage: Usage): void {
    this.updateSession(sessionId, this.statements.addUsage.run(usage.inputTokens, usage.outputTokens, Date.now(), sessionId).changes);
  }

  /** Sessions whose last turn failed before the model replied at all (the list's "clear failed runs"). */
  listFailedWithoutReply(): SessionRecord[] {
    return this.statements.failedWithoutReply.all().map(toSession);
  }

  /** Records how the session's last turn ended: its error, or null when it ended normally. */
  setLastError(sessionId: string, error: string | null): void {
    this.updateSession(sessionId, this.statements.setLastError.run(error, sessionId).changes);
  }

  setTitle(sessionId: string, title: string): void {
    this.updateSession(sessionId, this.statements.setTitle.run(title, Date.now(), sessionId).changes);
  }

  endSession(sessionId: string): void {
    const now = Date.now();
    this.updateSession(sessionId, this.statements.endSession.run(now, now, sessionId).changes);
  }

  deleteSession(sessionId: string): void {
    // Messages first, explicitly: the FTS delete triggers run per message in the same transaction.
    const remove = this.db.transaction(() => {
      this.statements.deleteMessages.run(sessionId);
      return this.statements.deleteSession.run(sessionId).changes;
    });
    let changes: number;
    try {
      changes = remove.immediate();
    } catch (err) {
      throw storeError(`delete session ${sessionId}`, err);
    }
    this.updateSession(sessionId, changes);
  }

  branchSession(input: BranchSession): SessionRecord {
    const parent = this.requireSession(input.sessionId);
    const upTo = input.upToMessageId ?? Number.MAX_SAFE_INTEGER;
    if (input.upToMessageId !== undefined && this.statements.messageInSession.get(input.upToMessageId, parent.id) === undefined) {
      throw new HearthError('session_not_found', `Session ${parent.id} has no message ${input.upToMessageId} to branch from.`);
    }
    const id = newSessionId();
    const copy = this.db.transaction(() => {
      const now = Date.now();
      this.statements.insertSession.run(id, input.source, parent.model, input.title ?? parent.title, parent.id, now, now);
      this.statements.copyMessages.run(id, parent.id, upTo);
      this.statements.totalsFromMessages.run(id, id, id, now, id);
    });
    try {
      copy.immediate();
    } catch (err) {
      throw storeError(`branch session ${parent.id}`, err);
    }
    return this.requireSession(id);
  }

  getMessagesById(ids: readonly number[]): StoredMessage[] {
    if (ids.length === 0) return [];
    // json_each keeps this one prepared statement whatever the number of ids.
    return this.statements.messagesById.all(JSON.stringify(ids)).map(toMessage);
  }

  search(query: string, options: { limit?: number } = {}): SearchHit[] {
    return this.searcher.search(query, options.limit ?? 20);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private requireSession(id: string): SessionRecord {
    const session = this.getSession(id);
    if (!session) throw new HearthError('session_not_found', `No session ${id}.`);
    return session;
  }

  private updateSession(sessionId: string, changes: number): void {
    if (changes === 0) throw new HearthError('session_not_found', `No session ${sessionId}.`);
  }
}

function messageValues(sessionId: string, message: NewMessage, now: number): unknown[] {
  return [
    sessionId,
    message.role,
    message.content,
    message.role === 'assistant' && message.toolCalls?.length ? JSON.stringify(message.toolCalls) : null,
    message.role === 'tool' ? message.toolCallId : null,
    message.role === 'tool' ? message.toolName : null,
    message.role === 'assistant' ? (message.reasoning ?? null) : null,
    message.inputTokens ?? null,
    message.outputTokens ?? null,
    now,
    message.role === 'tool' && message.outcome !== undefined ? JSON.stringify(message.outcome) : null,
    message.origin ?? ORIGIN_OF_ROLE[message.role],
    message.origin === 'copy' ? (message.copiedFrom ?? null) : null,
  ];
}

const ORIGIN_OF_ROLE: Record<NewMessage['role'], MessageOrigin> = { system: 'hearth', user: 'user', assistant: 'model', tool: 'tool' };

/**
 * Sessions nobody types into: a background review's or subagent's prompt and a cron job's scheduled prompt are
 * written by Hearth (or the parent model) into user-role rows, so they are stored as `hearth`.
 */
const TASK_SOURCES: ReadonlySet<SessionRecord['source']> = new Set(['subagent', 'cron']);

function asTaskPrompt(message: NewMessage): NewMessage {
  return message.role === 'user' && message.origin === undefined ? { ...message, origin: 'hearth' } : message;
}

/**
 * Marks the messages carried into a child session: each one that is a message of the parent (same role and
 * text, matched in order, a tool result by its call id) becomes a `copy` of it. A 'user' message that is
 * none of the parent's and says nothing of its origin was rewritten on the way, so it is Hearth's text,
 * never something the user typed (the learning loop would otherwise read it as new words from the user).
 */
function withCopyOrigins(parent: readonly StoredMessage[], messages: readonly NewMessage[]): NewMessage[] {
  const used = new Set<number>();
  let cursor = 0;
  const same = (p: StoredMessage, m: NewMessage) =>
    !used.has(p.id) && p.role === m.role && (m.role === 'tool' ? p.toolCallId === m.toolCallId : p.content === m.content);
  return messages.map((message) => {
    if (message.origin !== undefined) return message;
    let index = parent.findIndex((p, i) => i >= cursor && same(p, message));
    if (index === -1) index = parent.findIndex((p) => same(p, message));
    const original = parent[index];
    if (original === undefined) return message.role === 'user' ? { ...message, origin: 'hearth' } : message;
    used.add(original.id);
    cursor = index + 1;
    return { ...message, origin: 'copy', copiedFrom: original.id };
  });
}

/** `20250131-142501-9f3a1c`: sorts by start time, readable in a terminal, random enough not to collide. */
export function newSessionId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    source: row.source,
    model: row.model,
    title: row.title,
    parentSessionId: row.parent_session_id,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
    endedAt: row.ended_at,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    messageCount: row.message_count,
    lastError: row.last_error,
    hasReply: row.has_reply === 1,
  };
}

function toMessage(row: MessageRow): StoredMessage {
  let toolCalls: StoredMessage['toolCalls'] = null;
  if (row.tool_calls !== null) {
    const parsed = StoredToolCalls.safeParse(parseJson(row.tool_calls));
    if (!parsed.success) throw new HearthError('db_io', `Message ${row.id} has unreadable tool_calls: ${parsed.error.message}`);
    toolCalls = parsed.data;
  }
  let outcome: StoredMessage['outcome'] = null;
  if (row.tool_outcome !== null) {
    const parsed = ToolOutcome.safeParse(parseJson(row.tool_outcome));
    if (!parsed.success) throw new HearthError('db_io', `Message ${row.id} has an unreadable tool_outcome: ${parsed.error.message}`);
    outcome = parsed.data;
  }
  return {
    id: row.id,
    sessionId: row.session_id,
    role: row.role,
    content: row.content,
    toolCalls,
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    reasoning: row.reasoning,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    createdAt: row.created_at,
    outcome,
    // NULL only on a row written by an older Hearth after migrating (none should exist): read from its role.
    origin: row.origin ?? ORIGIN_OF_ROLE[row.role],
    copiedFrom: row.copied_from,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    // Reported by the schema check in the caller, which names the message.
    return { invalidJson: errorMessage(err) };
  }
}

function storeError(action: string, err: unknown): HearthError {
  return new HearthError('db_io', `Cannot ${action}: ${errorMessage(err)}`, { cause: err });
}
