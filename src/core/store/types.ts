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
}

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
}

export interface NewSession {
  id?: string;
  source: SessionSource;
  model: string;
  title?: string;
  parentSessionId?: string;
}

/** `outcome` is kept for tool rows only. */
export type NewMessage = ChatMessage & { inputTokens?: number; outputTokens?: number; outcome?: ToolOutcome };

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
  endSession(sessionId: string): void;
  /** Removes the session and its messages (the FTS index follows through triggers). */
  deleteSession(sessionId: string): void;
  /** A new session whose parent is `sessionId`, holding a copy of its messages (original times kept). */
  branchSession(input: BranchSession): SessionRecord;
  /** The messages with these ids that still exist, in id order. */
  getMessagesById(ids: readonly number[]): StoredMessage[];
  search(query: string, options?: { limit?: number }): SearchHit[];
  close(): void;
}
