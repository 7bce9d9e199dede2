import type { Db } from '../store/database.js';
import { STEMMED_WEIGHTS } from '../store/fts-schema.js';
import { ftsString, likeContains } from '../store/fts-query.js';
import { inRanges } from './query-dates.js';
import { parseQuery, type ParsedQuery } from './query-terms.js';

export interface RankedMessage {
  messageId: number;
  sessionId: string;
  createdAt: number;
  score: number;
}

/**
 * Weights of the lexical ranking. One set of defaults is used by the tool, the CLI and the LoCoMo
 * bench alike; the values were chosen on LoCoMo (`bench/locomo.ts --ablate` prints what each adds).
 */
export interface LexicalWeights {
  /** Trigram bm25, relative to stemmed bm25 (both normalised to the best hit). */
  trigram: number;
  /** Share of a neighbour's relevance a message inherits (±1 message, ±2 messages). */
  neighbour1: number;
  neighbour2: number;
  /** Session relevance (sum of its best messages, normalised) added to each of its messages. */
  session: number;
  /** Bonus for a message whose author (a "Name:" prefix) is named in the query, relative to the best hit. */
  speaker: number;
  /** Bonus for a message dated within a date the query names, and the slack around that date in days. */
  date: number;
  dateSlackDays: number;
  /** Recency bonus for the newest candidate (linear down to 0 for the oldest): breaks near-ties. */
  recency: number;
  /** How many of the newest matches each term contributes (bounds the cost at any store size). */
  termWindow: number;
  /** How many top messages are expanded to neighbours and sessions. */
  expand: number;
}

export const DEFAULT_WEIGHTS: LexicalWeights = {
  trigram: 0.2,
  neighbour1: 0.5,
  neighbour2: 0.2,
  session: 0.5,
  speaker: 1,
  date: 1,
  dateSlackDays: 1,
  recency: 0.02,
  termWindow: 5_000,
  expand: 100,
};

interface MessageMeta {
  id: number;
  session_id: string;
  created_at: number;
  /** The start of the text, where an imported or group-chat message names its author ("Caroline: …"). */
  head: string;
}

const META_COLUMNS = 'id, session_id, created_at, substr(content, 1, 48) AS head';
/** "Name:" or "First Last:" at the start of a message. */
const AUTHOR_PREFIX = /^([\p{L}][\p{L}\p{M}'’. -]{0,40}):\s/u;
const DAY_MS = 86_400_000;
/** How far by id to look for session neighbours before asking the session index. */
const NEARBY_IDS = 4;

/**
 * Lexical relevance of messages to a query, no model involved. Signals, blended as scores:
 *
 * - bm25 per query term over the stemmed index, summed with term weights (a sum of per-term bm25 is
 *   what FTS5's bm25 computes for an OR query; computing it per term lets each term be weighted and
 *   bounded to its newest `termWindow` matches);
 * - bm25 over the trigram index (substrings, CJK, words the stemmer splits differently), and a LIKE
 *   scan for CJK terms too short for trigrams;
 * - neighbours: a message inherits part of the relevance of the messages next to it, because the
 *   answer to a question usually sits in the reply after the message that names the topic;
 * - sessions: a session whose messages match many query terms lifts all of them (multi-part facts);
 * - authors: imported and group-chat messages start with "Name:"; when the query names that person,
 *   their messages get a bonus (questions about someone are answered by what that person said);
 * - dates: messages from a date the query names ("on 13 October, 2023") get a bonus;
 * - recency: a small bonus, enough to order near-equal hits newest first.
 *
 * Blending, not rank fusion, here: all of these are on one scale (bm25 normalised to the best hit), and
 * the gaps between scores carry information a rank-only fusion throws away. Rank fusion (RRF) is used
 * where scales differ: semantic similarity (see session-search.ts).
 */
export class LexicalRanker {
  private readonly statements;

  constructor(
    db: Db,
    private readonly weights: LexicalWeights = DEFAULT_WEIGHTS,
  ) {
    const stemmedWeights = STEMMED_WEIGHTS.join(', ');
    this.statements = {
      windowStart: db.prepare<[string, number], number>(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`).pluck(),
      stemmed: db.prepare<[string, number], { id: number; score: number }>(
        `SELECT rowid AS id, -bm25(messages_fts, ${stemmedWeights}) AS score FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ?`,
      ),
      trigram: db.prepare<[string, number], { id: number; score: number }>(
        `SELECT rowid AS id, -bm25(messages_trigram, ${stemmedWeights}) AS score FROM messages_trigram WHERE messages_trigram MATCH ? ORDER BY rowid DESC LIMIT ?`,
      ),
      meta: db.prepare<[number], MessageMeta>(`SELECT ${META_COLUMNS} FROM messages WHERE id = ?`),
      metaMany: db.prepare<[string], MessageMeta>(`SELECT ${META_COLUMNS} FROM messages WHERE id IN (SELECT value FROM json_each(?))`),
      before: db.prepare<[string, number, number], MessageMeta>(`SELECT ${META_COLUMNS} FROM messages WHERE session_id = ? AND id < ? ORDER BY id DESC LIMIT ?`),
      after: db.prepare<[string, number, number], MessageMeta>(`SELECT ${META_COLUMNS} FROM messages WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?`),
      containing: db.prepare<[string, number], number>(`SELECT id FROM messages WHERE content LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT ?`).pluck(),
    };
  }

  /** The ranking fields of one message (for hits another list found), or null when it does not exist. */
  describe(messageId: number): RankedMessage | null {
    const row = this.statements.meta.get(messageId);
    return row ? { messageId: row.id, sessionId: row.session_id, createdAt: row.created_at, score: 0 } : null;
  }

  rank(query: string, limit: number): RankedMessage[] {
    const parsed = parseQuery(query);
    if (parsed.terms.length === 0 || limit <= 0) return [];
    const relevance = this.blend(parsed);
    return this.expand(parsed, relevance, limit);
  }

  /** Stemmed + trigram (+ short-CJK LIKE) relevance, each normalised to its best hit. */
  private blend(parsed: ParsedQuery): Map<number, number> {
    const stemmed = new Map<number, number>();
    for (const term of parsed.terms) {
      const match = ftsString(term.text);
      const lowest = this.statements.windowStart.get(match, this.weights.termWindow - 1) ?? 0;
      for (const { id, score } of this.statements.stemmed.all(match, lowest)) stemmed.set(id, (stemmed.get(id) ?? 0) + term.weight * score);
    }
    const trigram = new Map<number, number>();
    if (parsed.trigram.length > 0 && this.weights.trigram > 0) {
      const match = parsed.trigram.map(ftsString).join(' OR ');
      for (const { id, score } of this.statements.trigram.all(match, this.weights.termWindow)) trigram.set(id, score);
    }
    const relevance = new Map<number, number>();
    addNormalised(relevance, stemmed, 1);
    addNormalised(relevance, trigram, this.weights.trigram);
    if (parsed.shortCjk.length > 0) addNormalised(relevance, this.shortCjkMatches(parsed.shortCjk), 1);
    return relevance;
  }

  /** CJK terms of one or two characters have no trigram: a bounded newest-first LIKE scan, one point per term. */
  private shortCjkMatches(terms: string[]): Map<number, number> {
    const scores = new Map<number, number>();
    for (const term of terms) for (const id of this.statements.containing.all(likeContains(term), this.weights.termWindow)) scores.set(id, (scores.get(id) ?? 0) + 1);
    return scores;
  }

  /**
   * The candidates and the messages within NEARBY_IDS ids of them, in one query: sessions are mostly
   * written one at a time, so a message's session neighbours are usually its id neighbours. A query per
   * candidate costs far more (measured ~5× on LoCoMo).
   */
  private nearbyRows(ids: number[]): Map<number, MessageMeta> {
    const wanted = new Set<number>();
    for (const id of ids) for (let d = -NEARBY_IDS; d <= NEARBY_IDS; d++) wanted.add(id + d);
    return new Map(this.statements.metaMany.all(JSON.stringify([...wanted])).map((row) => [row.id, row]));
  }

  /** Up to `reach` messages of the same session on one side of `row`, nearest first. */
  private sessionNeighbours(row: MessageMeta, side: -1 | 1, reach: number, nearby: Map<number, MessageMeta>): MessageMeta[] {
    const found: MessageMeta[] = [];
    for (let d = 1; d <= NEARBY_IDS && found.length < reach; d++) {
      const near = nearby.get(row.id + side * d);
      if (near?.session_id === row.session_id) found.push(near);
    }
    if (found.length === reach) return found;
    // Interleaved sessions or a session edge: ask the index (an edge simply returns fewer rows).
    return side < 0 ? this.statements.before.all(row.session_id, row.id, reach) : this.statements.after.all(row.session_id, row.id, reach);
  }

  /** Neighbour and session propagation over the best candidates, then recency; the top `limit`. */
  private expand(parsed: ParsedQuery, relevance: Map<number, number>, limit: number): RankedMessage[] {
    const { neighbour1, neighbour2, session, recency, expand, speaker, date, dateSlackDays } = this.weights;
    const top = [...relevance].sort((a, b) => b[1] - a[1]).slice(0, expand);
    const meta = new Map<number, MessageMeta>();
    const scores = new Map<number, number>();
    const add = (id: number, score: number) => scores.set(id, (scores.get(id) ?? 0) + score);
    const shares = [0, neighbour1, neighbour2];
    const reach = shares.length - 1;
    const nearby = this.nearbyRows(top.map(([id]) => id));
    for (const [id, rel] of top) {
      const row = nearby.get(id);
      if (!row) continue; // deleted between the FTS lookup and now: nothing to rank
      meta.set(id, row);
      add(id, rel);
      for (const side of [-1, 1] as const) {
        this.sessionNeighbours(row, side, reach, nearby).forEach((near, index) => {
          meta.set(near.id, near);
          add(near.id, (shares[index + 1] ?? 0) * rel);
        });
      }
    }

    if (session > 0) {
      const bySession = new Map<string, number[]>();
      for (const [id, rel] of top) {
        const sessionId = meta.get(id)?.session_id;
        if (sessionId === undefined) continue;
        const rels = bySession.get(sessionId) ?? [];
        rels.push(rel);
        bySession.set(sessionId, rels);
      }
      const sessionScore = new Map([...bySession].map(([sessionId, rels]) => [sessionId, sumOfBest(rels, 3)]));
      const best = Math.max(...sessionScore.values());
      for (const [id, row] of meta) scores.set(id, (scores.get(id) ?? 0) + (session * (sessionScore.get(row.session_id) ?? 0)) / best);
    }

    const queryWords = new Set(parsed.words);
    for (const [id, row] of meta) {
      let bonus = 0;
      if (speaker > 0 && authorWords(row.head).some((word) => queryWords.has(word))) bonus += speaker;
      if (date > 0 && parsed.dates.length > 0 && inRanges(row.created_at, parsed.dates, dateSlackDays * DAY_MS)) bonus += date;
      if (bonus > 0) scores.set(id, (scores.get(id) ?? 0) + bonus);
    }

    const times = [...meta.values()].map((row) => row.created_at);
    const oldest = Math.min(...times);
    const span = Math.max(...times) - oldest || 1;
    return [...meta.values()]
      .map((row) => ({
        messageId: row.id,
        sessionId: row.session_id,
        createdAt: row.created_at,
        score: (scores.get(row.id) ?? 0) + (recency * (row.created_at - oldest)) / span,
      }))
      .sort((a, b) => b.score - a.score || b.messageId - a.messageId)
      .slice(0, limit);
  }
}

function authorWords(head: string): string[] {
  const name = AUTHOR_PREFIX.exec(head)?.[1];
  return name ? name.toLowerCase().split(/[\s.]+/u).filter((word) => word.length > 1) : [];
}

function addNormalised(into: Map<number, number>, scores: Map<number, number>, weight: number): void {
  if (weight <= 0 || scores.size === 0) return;
  const best = Math.max(...scores.values());
  if (best <= 0) return;
  for (const [id, score] of scores) into.set(id, (into.get(id) ?? 0) + (weight * score) / best);
}

function sumOfBest(values: number[], n: number): number {
  return [...values]
    .sort((a, b) => b - a)
    .slice(0, n)
    .reduce((sum, value) => sum + value, 0);
}
