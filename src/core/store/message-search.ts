import type { ChatMessage } from '../llm/types.js';
import type { Db } from './database.js';
import { STEMMED_WEIGHTS } from './fts-schema.js';
import { likeContains, matchAll, matchAny, parseSearchTerms, snippetAround } from './fts-query.js';
import type { SearchHit } from './types.js';

interface HitRow {
  id: number;
  session_id: string;
  role: ChatMessage['role'];
  created_at: number;
  snippet: string;
  score: number;
}
type MessageRow = Omit<HitRow, 'snippet'> & { content: string };

const SNIPPET_TOKENS = { stemmed: 12, trigram: 48 } as const;

/** How many of the newest matches bm25 ranks (see the class comment). */
export const RANK_WINDOW = 1_000;

/**
 * Session search over the two FTS indexes (see fts-schema.ts).
 *
 * 1. Stemmed index, every term required, ranked by bm25; if that finds nothing, any term.
 * 2. When (1) found nothing, or the query has CJK text: the trigram index for substrings and CJK,
 *    newest first, plus a LIKE scan for CJK terms shorter than a trigram.
 *
 * Bounded cost at any size. bm25 has to score every row it ranks, and a common word matches a large
 * share of a million messages; FTS5's own `ORDER BY rank` ignores rowid bounds, so it would score them
 * all. Instead: a newest-first scan of the doclist finds the rowid of the RANK_WINDOW-th newest match,
 * bm25 is computed only from that rowid up (a rowid range FTS5 does push down), and snippets are built
 * only for the hits returned. Queries with fewer matches than the window are ranked exactly. Trigram
 * and LIKE passes are newest first with a LIMIT. Scores: -bm25 for stemmed hits (higher is better);
 * substring-only hits score 0 and come after.
 */
export class MessageSearch {
  private readonly windowStart;
  private readonly rank;
  private readonly stemmedHit;
  private readonly trigram;

  constructor(
    private readonly db: Db,
    private readonly rankWindow = RANK_WINDOW,
  ) {
    this.windowStart = db
      .prepare<[string, number], number>(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`)
      .pluck();
    this.rank = db.prepare<[string, number, number], { id: number; score: number }>(`
      SELECT rowid AS id, -bm25(messages_fts, ${STEMMED_WEIGHTS.join(', ')}) AS score
      FROM messages_fts
      WHERE messages_fts MATCH ? AND rowid >= ?
      ORDER BY score DESC
      LIMIT ?`);
    // CAST: better-sqlite3 binds a JS number as a REAL, and FTS5 then ignores the rowid filter (every hit got
    // the snippet of the first matching message).
    this.stemmedHit = db.prepare<[string, number], Omit<HitRow, 'score'>>(`
      SELECT m.id, m.session_id, m.role, m.created_at,
             snippet(messages_fts, -1, '[', ']', '…', ${SNIPPET_TOKENS.stemmed}) AS snippet
      FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
      WHERE messages_fts MATCH ? AND messages_fts.rowid = CAST(? AS INTEGER)`);
    this.trigram = db.prepare<[string, number], HitRow>(`
      SELECT m.id, m.session_id, m.role, m.created_at,
             snippet(messages_trigram, -1, '[', ']', '…', ${SNIPPET_TOKENS.trigram}) AS snippet,
             0 AS score
      FROM messages_trigram JOIN messages m ON m.id = messages_trigram.rowid
      WHERE messages_trigram MATCH ?
      ORDER BY messages_trigram.rowid DESC
      LIMIT ?`);
  }

  search(query: string, limit = 20): SearchHit[] {
    const terms = parseSearchTerms(query);
    if (terms.all.length === 0 || limit <= 0) return [];

    const hits = new Map<number, SearchHit>();
    const add = (rows: HitRow[]) => {
      for (const row of rows) if (hits.size < limit && !hits.has(row.id)) hits.set(row.id, toHit(row));
    };

    add(this.ranked(matchAll(terms.all), limit));
    if (hits.size === 0 && terms.all.length > 1) add(this.ranked(matchAny(terms.all), limit));

    // Substring passes only when the words found nothing, or for CJK (one unicode61 token per run of
    // CJK text, so the stemmed index rarely matches it): trigram phrases over common trigrams cost far
    // more than word lookups, and words that matched as words need no substring second guess.
    const substringsWanted = hits.size === 0 || terms.hasCjk;
    if (substringsWanted && hits.size < limit && terms.trigram.length > 0 && terms.shortCjk.length === 0) {
      add(this.trigram.all(matchAll(terms.trigram), limit));
    }
    if (substringsWanted && hits.size < limit && terms.shortCjk.length > 0) add(this.substringScan(terms.trigram, terms.shortCjk, limit));
    return [...hits.values()];
  }

  /** bm25-ranked stemmed hits among the newest `rankWindow` matches, with snippets for those only. */
  private ranked(match: string, limit: number): HitRow[] {
    const lowestRowid = this.windowStart.get(match, this.rankWindow - 1) ?? 0;
    return this.rank.all(match, lowestRowid, limit).flatMap(({ id, score }) => {
      const row = this.stemmedHit.get(match, id);
      return row ? [{ ...row, score }] : [];
    });
  }

  /**
   * CJK terms of one or two characters have no trigram, so they are matched with LIKE. Longer terms in
   * the same query still narrow through the trigram index; with none, this scans messages newest first
   * and stops at `limit` hits.
   */
  private substringScan(trigramTerms: string[], shortTerms: string[], limit: number): HitRow[] {
    const likes = shortTerms.map(() => `m.content LIKE ? ESCAPE '\\'`).join(' AND ');
    const patterns = shortTerms.map(likeContains);
    const rows =
      trigramTerms.length > 0
        ? this.db
            .prepare<unknown[], MessageRow>(`
              SELECT m.id, m.session_id, m.role, m.created_at, m.content, 0 AS score
              FROM messages_trigram JOIN messages m ON m.id = messages_trigram.rowid
              WHERE messages_trigram MATCH ? AND ${likes}
              ORDER BY messages_trigram.rowid DESC LIMIT ?`)
            .all(matchAll(trigramTerms), ...patterns, limit)
        : this.db
            .prepare<unknown[], MessageRow>(`
              SELECT m.id, m.session_id, m.role, m.created_at, m.content, 0 AS score
              FROM messages m WHERE ${likes}
              ORDER BY m.id DESC LIMIT ?`)
            .all(...patterns, limit);
    const anchor = shortTerms[0] ?? '';
    return rows.map(({ content, ...row }) => ({ ...row, snippet: snippetAround(content, anchor) }));
  }
}

function toHit(row: HitRow): SearchHit {
  return { messageId: row.id, sessionId: row.session_id, role: row.role, snippet: row.snippet, score: row.score, createdAt: row.created_at };
}
