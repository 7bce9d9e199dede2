import { randomBytes } from 'node:crypto';
import type { Db } from './database.js';
import { matchAll, matchAny, parseSearchTerms } from './fts-query.js';

/** What the contract's SearchResult.snippet uses around a match (the UI turns them into <mark>). */
export const MATCH_OPEN = '\uE000';
export const MATCH_CLOSE = '\uE001';

const STEMMED_TOKENS = 12;
const TRIGRAM_TOKENS = 48;
const AROUND_CHARS = 40;

/**
 * Snippets for search hits with the matched words between U+E000 and U+E001, built by FTS5 from the same
 * indexes the search used (so a stemmed match like "deployed" for "deploying" is marked too). FTS5 writes
 * random one-off markers first; any U+E000/U+E001 already in a message is removed before they are swapped
 * in, so message text can never fake or break a highlight.
 */
export class SearchSnippets {
  private readonly stemmed;
  private readonly trigram;
  private readonly content;

  constructor(db: Db) {
    // CAST: better-sqlite3 binds a JS number as a REAL, and FTS5 then ignores a `MATCH … AND rowid = ?`
    // constraint altogether, so the first matching message's snippet came back for every hit.
    const snippet = (table: string, tokens: number) =>
      db
        .prepare<[string, string, string, number], string>(`SELECT snippet(${table}, -1, ?, ?, '…', ${tokens}) FROM ${table} WHERE ${table} MATCH ? AND rowid = CAST(? AS INTEGER)`)
        .pluck();
    this.stemmed = snippet('messages_fts', STEMMED_TOKENS);
    this.trigram = snippet('messages_trigram', TRIGRAM_TOKENS);
    this.content = db.prepare<[number], string>('SELECT content FROM messages WHERE id = ?').pluck();
  }

  forMessage(messageId: number, query: string): string {
    const terms = parseSearchTerms(query);
    const nonce = randomBytes(6).toString('hex');
    const open = `\u0002${nonce}<`;
    const close = `>${nonce}\u0003`;
    const attempts: [typeof this.stemmed, string][] = [];
    if (terms.all.length > 0) attempts.push([this.stemmed, matchAll(terms.all)], [this.stemmed, matchAny(terms.all)]);
    if (terms.trigram.length > 0) attempts.push([this.trigram, matchAll(terms.trigram)], [this.trigram, matchAny(terms.trigram)]);
    for (const [statement, match] of attempts) {
      const marked = statement.get(open, close, match, messageId);
      if (marked !== undefined && marked.includes(open)) return swapMarkers(marked, open, close);
    }
    // Short CJK terms are found by LIKE, outside FTS: mark the first occurrence by hand.
    return markFirst(this.content.get(messageId) ?? '', terms.all);
  }
}

function swapMarkers(text: string, open: string, close: string): string {
  return stripMarkers(text).split(open).join(MATCH_OPEN).split(close).join(MATCH_CLOSE);
}

function stripMarkers(text: string): string {
  return text.replaceAll(MATCH_OPEN, '').replaceAll(MATCH_CLOSE, '');
}

function markFirst(content: string, terms: readonly string[]): string {
  const text = stripMarkers(content);
  const lower = text.toLowerCase();
  const found = terms.map((term) => ({ term, at: lower.indexOf(term.toLowerCase()) })).find((t) => t.at >= 0);
  if (found === undefined) return text.slice(0, AROUND_CHARS * 2);
  const start = Math.max(0, found.at - AROUND_CHARS);
  const end = Math.min(text.length, found.at + found.term.length + AROUND_CHARS);
  const before = text.slice(start, found.at);
  const match = text.slice(found.at, found.at + found.term.length);
  return `${start > 0 ? '…' : ''}${before}${MATCH_OPEN}${match}${MATCH_CLOSE}${text.slice(found.at + found.term.length, end)}${end < text.length ? '…' : ''}`;
}
