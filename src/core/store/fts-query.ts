/**
 * Turning what a user types into FTS5 queries that cannot fail. Every term is emitted as a quoted
 * FTS5 string, so `AND`, `*`, `(`, `NEAR`, `col:` and stray quotes are plain text, never syntax.
 */

/** Bounds keep a pasted paragraph from becoming a pathological query. */
const MAX_TERMS = 16;
const MAX_TERM_CHARS = 64;

/** Han, Hiragana, Katakana, Hangul: scripts written without spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;

export interface SearchTerms {
  /** Terms as typed (NFKC-normalised), each containing at least one letter or digit. */
  all: string[];
  /** Terms long enough for the trigram index (≥ 3 characters). */
  trigram: string[];
  /** CJK terms under 3 characters: too short for trigrams, so matched with LIKE. */
  shortCjk: string[];
  hasCjk: boolean;
}

export function parseSearchTerms(query: string): SearchTerms {
  const all = query
    .normalize('NFKC')
    .split(/\s+/u)
    .filter((term) => WORD_CHAR.test(term))
    .map((term) => [...term].slice(0, MAX_TERM_CHARS).join(''))
    .slice(0, MAX_TERMS);
  const length = (term: string) => [...term].length;
  return {
    all,
    trigram: all.filter((term) => length(term) >= 3),
    shortCjk: all.filter((term) => length(term) < 3 && CJK.test(term)),
    hasCjk: all.some((term) => CJK.test(term)),
  };
}

/** One FTS5 string literal: the term as a phrase, with `"` doubled as FTS5 requires. */
export function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** Every term must occur (FTS5's implicit AND). */
export function matchAll(terms: readonly string[]): string {
  return terms.map(ftsString).join(' ');
}

/** Any term may occur. */
export function matchAny(terms: readonly string[]): string {
  return terms.map(ftsString).join(' OR ');
}

/** A LIKE pattern matching `term` anywhere, with `\` as the escape for `%`, `_` and `\` itself. */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `…text [term] text…` around the first occurrence, for hits the FTS snippet() cannot produce. */
export function snippetAround(text: string, term: string, context = 24): string {
  const at = text.toLowerCase().indexOf(term.toLowerCase());
  if (at < 0) return text.slice(0, context * 2);
  const start = Math.max(0, at - context);
  const end = Math.min(text.length, at + term.length + context);
  return `${start > 0 ? '…' : ''}${text.slice(start, at)}[${text.slice(at, at + term.length)}]${text.slice(at + term.length, end)}${end < text.length ? '…' : ''}`;
}
