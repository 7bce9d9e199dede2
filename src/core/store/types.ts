import type { ToolOutcome } from '../../shared/events.js';
import type { ChatMessage, ToolCall, Usage } from '../llm/types.js';

/** Where a session came from: the surface that started it. */
export type SessionSource = 'cli' | 'desktop' | 'web' | 'gateway' | 'cron' | 'api' | 'subagent';

export interface SessionRecord {
  id: string;
  source: SessionSource;
  model: string;
  title: string | null;
  parentSessionId: string | null;
  startedAt: number;
  updatedAt: number;
  endedAt: number | null;
  inputTokens: number;
  outputTokens: number;
  messageCount: number;
  /** Why the session's last turn failed (its error message); null when it ended normally, or no turn ran. */
  lastError: string | null;
  /** Whether the model replied at least once in the session. */
  hasReply: boolean;
}

/**
 * Who wrote a stored message (store version 7). `user`: typed by the user in this session; `model`: the
 * assistant's reply; `tool`: a tool result; `hearth`: text Hearth wrote itself, even in a 'user' role row
 * (compression summaries, the step-budget request, system rows); `copy`: a message duplicated from the
 * parent session (compression's continuation, a branch), with `copiedFrom` naming the original. The
 * learning loop reads only `user` (and `model`) rows, so nothing is learned twice or from Hearth's own words.
 */
export const MESSAGE_ORIGINS = ['user', 'model', 'tool', 'hearth', 'copy'] as const;
export type MessageOrigin = (typeof MESSAGE_ORIGINS)[number];

export interface StoredMessage {
  /** Stable integer id (also the FTS rowid). */
  id: number;
  sessionId: string;
  role: ChatMessage['role'];
  content: string;
  toolCalls: ToolCall[] | null;
  toolCallId: string | null;
  toolName: string | null;
  reasoning: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  createdAt: number;
  /** How a tool call ended (tool rows written since store version 5); null otherwise. */
  outcome: ToolOutcome | null;
  origin: MessageOrigin;
  /** For `copy` rows: the id of the message this one duplicates (it may since have been deleted). */
  copiedFrom: number | null;
}

export interface NewSession {
  id?: string;
  source: SessionSource;
  model: string;
  title?: string;
  parentSessionId?: string;
}

type WithoutOrigin<M> = M extends unknown ? Omit<M, 'origin'> : never;

/**
 * `outcome` is kept for tool rows only. `origin` defaults from the role (user → `user`, assistant → `model`,
 * tool → `tool`, system → `hearth`); a 'user' row Hearth wrote must say `hearth` (ChatMessage carries it).
 */
export type NewMessage = WithoutOrigin<ChatMessage> & { inputTokens?: number; outputTokens?: number; outcome?: ToolOutcome; origin?: MessageOrigin; copiedFrom?: number };

/** A new session that starts as a copy of another one's conversation (the UI's "branch from here"). */
export interface BranchSession {
  sessionId: string;
  /** Copy the messages up to and including this one; all of them when omitted. */
  upToMessageId?: number;
  source: SessionSource;
  title?: string;
}

export interface SearchHit {
  messageId: number;
  sessionId: string;
  role: ChatMessage['role'];
  /** Excerpt with the match marked by `[` … `]`. */
  snippet: string;
  score: number;
  createdAt: number;
}

/** Persistence of sessions and messages. Every write commits before it returns. */
export interface SessionStore {
  createSession(input: NewSession): SessionRecord;
  getSession(id: string): SessionRecord | null;
  listSessions(options?: { limit?: number; offset?: number }): SessionRecord[];
  appendMessage(sessionId: string, message: NewMessage): StoredMessage;
  getMessages(sessionId: string): StoredMessage[];
  addUsage(sessionId: string, usage: Usage): void;
  setTitle(sessionId: string, title: string): void;
  /** How the last turn ended: its error message, or null when it ended normally (sessions.last_error). */
  setLastError(sessionId: string, error: string | null): void;
  endSession(sessionId: string): void;
  /** Removes the session and its messages (the FTS index follows through triggers). */
  deleteSession(sessionId: string): void;
  /**
   * Messages that continue `parentId`'s conversation in its child `sessionId` (compression): each one that
   * is a message of the parent is stored as a `copy` of it; the rest keep their own origin, and a 'user'
   * one that is not the parent's (rewritten on the way) is stored as `hearth`, never as user-typed.
   */
  appendContinuation(sessionId: string, parentId: string, messages: readonly NewMessage[]): StoredMessage[];
  /** A new session whose parent is `sessionId`, holding a copy of its messages (original times kept). */
  branchSession(input: BranchSession): SessionRecord;
  /** The messages with these ids that still exist, in id order. */
  getMessagesById(ids: readonly number[]): StoredMessage[];
  search(query: string, options?: { limit?: number }): SearchHit[];
  close(): void;
}
