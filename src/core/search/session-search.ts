import { HearthError } from '../errors.js';
import type { ChatMessage } from '../llm/types.js';
import type { SqliteSessionStore } from '../store/session-store.js';
import { DEFAULT_WEIGHTS, LexicalRanker, type LexicalWeights, type RankedMessage } from './lexical-ranker.js';
import { reciprocalRankFusion } from './rank-fusion.js';

/** Semantic neighbours of a query (an EmbeddingIndex's `query`), fused with the lexical ranking. */
export type SemanticSearch = (query: string, k: number) => Promise<{ messageId: number; score: number }[]>;

export interface SessionSearchOptions {
  semantic?: SemanticSearch;
  weights?: LexicalWeights;
}

/** The three shapes, inferred from which arguments are present (as in Hermes Agent). */
export interface SessionSearchRequest {
  query?: string;
  limit?: number;
  session_id?: string;
  around_message_id?: number;
  /** Messages either side of `around_message_id` (scroll). */
  window?: number;
}

export interface MessageLine {
  id: number;
  role: ChatMessage['role'];
  createdAt: number;
  content: string;
}

export interface SessionInfo {
  id: string;
  title: string | null;
  startedAt: number;
  updatedAt: number;
  messageCount: number;
}

export interface DiscoveryHit {
  messageId: number;
  score: number;
  session: SessionInfo;
  /** The hit and the messages around it, in order. */
  window: MessageLine[];
  /** The session's opening and closing user/assistant messages; empty when an earlier hit showed them. */
  bookends: { first: MessageLine[]; last: MessageLine[] };
}

export type SessionSearchResult =
  | { kind: 'discovery'; query: string; hits: DiscoveryHit[] }
  | { kind: 'scroll'; session: SessionInfo; aroundMessageId: number; messages: MessageLine[] }
  | { kind: 'browse'; sessions: (SessionInfo & { preview: string | null })[] };

export const SEARCH_LIMITS = {
  defaultHits: 5,
  maxHits: 10,
  /** ±messages around each discovery hit. */
  hitWindow: 2,
  /** Opening and closing user/assistant messages shown per session. */
  bookend: 2,
  defaultScroll: 5,
  maxScroll: 20,
  defaultBrowse: 10,
  maxBrowse: 50,
} as const;

/** How deep each list goes before fusion: fusion can only promote what a list retrieved. */
const FUSION_DEPTH = 50;
/** Ranked messages considered for discovery: hits inside an earlier hit's window fold into it. */
const DISCOVERY_DEPTH = 40;

interface MessageRow {
  id: number;
  session_id: string;
  role: ChatMessage['role'];
  created_at: number;
  content: string;
}

/**
 * Session search for the agent and the CLI: discovery (ranked hits with context), scroll (around a
 * message) and browse (recent sessions). Ranking is lexical (LexicalRanker), fused with semantic
 * neighbours by reciprocal rank fusion when an embedding index is configured. No LLM anywhere.
 */
export class SessionSearch {
  private readonly lexical: LexicalRanker;
  private readonly semantic: SemanticSearch | undefined;
  private readonly statements;

  constructor(
    readonly store: SqliteSessionStore,
    options: SessionSearchOptions = {},
  ) {
    this.lexical = new LexicalRanker(store.db, options.weights ?? DEFAULT_WEIGHTS);
    this.semantic = options.semantic;
    const columns = 'id, session_id, role, created_at, content';
    this.statements = {
      message: store.db.prepare<[number], MessageRow>(`SELECT ${columns} FROM messages WHERE id = ?`),
      before: store.db.prepare<[string, number, number], MessageRow>(`SELECT ${columns} FROM messages WHERE session_id = ? AND id < ? ORDER BY id DESC LIMIT ?`),
      after: store.db.prepare<[string, number, number], MessageRow>(`SELECT ${columns} FROM messages WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?`),
      first: store.db.prepare<[string, number], MessageRow>(
        `SELECT ${columns} FROM messages WHERE session_id = ? AND role IN ('user', 'assistant') AND content <> '' ORDER BY id LIMIT ?`,
      ),
      last: store.db.prepare<[string, number], MessageRow>(
        `SELECT ${columns} FROM messages WHERE session_id = ? AND role IN ('user', 'assistant') AND content <> '' ORDER BY id DESC LIMIT ?`,
      ),
    };
  }

  /** Infers the shape from the arguments; contradictory or incomplete ones are a `usage` error that says what to send. */
  async run(request: SessionSearchRequest): Promise<SessionSearchResult> {
    const query = request.query?.trim();
    const scrolling = request.session_id !== undefined || request.around_message_id !== undefined;
    if (query && scrolling) {
      throw new HearthError('usage', 'Give either query (to search) or session_id with around_message_id (to read around a message), not both.');
    }
    if (request.query !== undefined && !query) throw new HearthError('usage', 'query is empty: give words to search for, or omit it to list recent sessions.');
    if (query) return this.discover(query, request.limit);
    if (scrolling) {
      if (request.session_id === undefined || request.around_message_id === undefined) {
        throw new HearthError('usage', 'Scrolling needs both session_id and around_message_id (both are shown with every search hit).');
      }
      return this.scroll(request.session_id, request.around_message_id, request.window);
    }
    return this.browse(request.limit);
  }

  /** Messages ranked for a query: the ranking discovery shows and the LoCoMo bench measures. */
  async rankMessages(query: string, limit: number): Promise<RankedMessage[]> {
    const lexical = this.lexical.rank(query, Math.max(limit, FUSION_DEPTH));
    if (!this.semantic) return lexical.slice(0, limit);
    const semantic = await this.semantic(query, Math.max(limit, FUSION_DEPTH));
    const fused = reciprocalRankFusion([lexical.map((hit) => hit.messageId), semantic.map((hit) => hit.messageId)]);
    const known = new Map(lexical.map((hit) => [hit.messageId, hit]));
    return fused.slice(0, limit).flatMap(({ id, score }) => {
      const hit = known.get(id) ?? this.lexical.describe(id);
      return hit ? [{ ...hit, score }] : [];
    });
  }

  async discover(query: string, limit: number = SEARCH_LIMITS.defaultHits): Promise<SessionSearchResult & { kind: 'discovery' }> {
    const wanted = clamp(limit, 1, SEARCH_LIMITS.maxHits);
    const ranked = await this.rankMessages(query, DISCOVERY_DEPTH);
    const hits: DiscoveryHit[] = [];
    const shown = new Set<number>();
    const bookendsShown = new Set<string>();
    for (const candidate of ranked) {
      if (hits.length >= wanted) break;
      if (shown.has(candidate.messageId)) continue; // already visible in an earlier hit's window
      const session = this.sessionInfo(candidate.sessionId);
      const row = this.statements.message.get(candidate.messageId);
      if (!session || !row) continue; // deleted since it was ranked: nothing to show
      const window = this.around(row, SEARCH_LIMITS.hitWindow);
      for (const line of window) shown.add(line.id);
      const firstTime = !bookendsShown.has(session.id);
      bookendsShown.add(session.id);
      hits.push({ messageId: row.id, score: candidate.score, session, window, bookends: firstTime ? this.bookends(session.id, window) : { first: [], last: [] } });
    }
    return { kind: 'discovery', query, hits };
  }

  scroll(sessionId: string, aroundMessageId: number, window: number = SEARCH_LIMITS.defaultScroll): SessionSearchResult & { kind: 'scroll' } {
    const session = this.sessionInfo(sessionId);
    if (!session) throw new HearthError('session_not_found', `No session ${sessionId}. Search or browse (no arguments) to find session ids.`);
    const row = this.statements.message.get(aroundMessageId);
    if (row?.session_id !== sessionId) {
      throw new HearthError('usage', `Message ${aroundMessageId} is not in session ${sessionId}. Use a message id shown for that session (#id).`);
    }
    return { kind: 'scroll', session, aroundMessageId, messages: this.around(row, clamp(window, 1, SEARCH_LIMITS.maxScroll)) };
  }

  browse(limit: number = SEARCH_LIMITS.defaultBrowse): SessionSearchResult & { kind: 'browse' } {
    const sessions = this.store.listSessions({ limit: clamp(limit, 1, SEARCH_LIMITS.maxBrowse) });
    return {
      kind: 'browse',
      sessions: sessions.map((session) => ({
        ...toInfo(session),
        preview: this.statements.first.all(session.id, 1).find((row) => row.role === 'user')?.content ?? null,
      })),
    };
  }

  private sessionInfo(sessionId: string): SessionInfo | null {
    const session = this.store.getSession(sessionId);
    return session ? toInfo(session) : null;
  }

  private around(row: MessageRow, reach: number): MessageLine[] {
    const before = this.statements.before.all(row.session_id, row.id, reach).reverse();
    const after = this.statements.after.all(row.session_id, row.id, reach);
    return [...before, row, ...after].map(toLine);
  }

  /** Opening and closing messages not already inside the hit's window. */
  private bookends(sessionId: string, window: MessageLine[]): DiscoveryHit['bookends'] {
    const inWindow = new Set(window.map((line) => line.id));
    const first = this.statements.first.all(sessionId, SEARCH_LIMITS.bookend).filter((row) => !inWindow.has(row.id));
    const firstIds = new Set(first.map((row) => row.id));
    const last = this.statements.last
      .all(sessionId, SEARCH_LIMITS.bookend)
      .reverse()
      .filter((row) => !inWindow.has(row.id) && !firstIds.has(row.id));
    return { first: first.map(toLine), last: last.map(toLine) };
  }
}

function toInfo(session: { id: string; title: string | null; startedAt: number; updatedAt: number; messageCount: number }): SessionInfo {
  return { id: session.id, title: session.title, startedAt: session.startedAt, updatedAt: session.updatedAt, messageCount: session.messageCount };
}

function toLine(row: MessageRow): MessageLine {
  return { id: row.id, role: row.role, createdAt: row.created_at, content: row.content };
}

function clamp(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) throw new HearthError('usage', `Expected a number between ${min} and ${max}; got ${value}.`);
  return Math.min(max, Math.max(min, Math.trunc(value)));
}
