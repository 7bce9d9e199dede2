import { extractQueryDates, type DateRange } from './query-dates.js';
import { otherVerbForms } from './word-forms.js';

/**
 * What a search query asks for, as weighted terms. Session-search queries are often whole questions
 * written by a model ("When did Caroline go to the support group?"), so the words that make a sentence
 * a question carry no signal and are dropped, while the content words are kept, lowercased and
 * deduplicated. Each term becomes a quoted FTS5 string, so no input is ever FTS5 syntax.
 */

/** Bounds keep a pasted paragraph from becoming a pathological query. */
const MAX_TERMS = 24;
const MAX_TERM_CHARS = 64;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Words are runs of letters, digits and combining marks; everything else separates them. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Function words plus the scaffolding of questions and requests ("what kind of", "would … likely",
 * "tell me about"). Content words such as months, numbers and names are kept on purpose.
 */
const STOP_WORDS = new Set(
  `a an the and or but nor so yet of to in on at by for with from into onto about as than then
   what when where who whom whose which why how
   is are was were be been being am do does did done doing has have had having
   will would shall should can could may might must
   i me my mine we us our ours you your yours he him his she her hers it its they them their theirs
   this that these those there here
   some any each every all both either neither other another such
   not no yes very too also just only ever even still really
   kind type sort likely way ways thing things something anything
   s t d ll re ve m`.split(/\s+/u),
);

export interface QueryTerm {
  text: string;
  /** Multiplies the term's bm25 contribution. */
  weight: number;
}

export interface ParsedQuery {
  /** Content words for the stemmed index, then their other verb forms and, for "when", time words. */
  terms: QueryTerm[];
  /** Dates the query names ("in August 2023"): messages from then are boosted. */
  dates: DateRange[];
  /** Content words as typed (lowercased): what speaker names are matched against. */
  words: string[];
  /** Strings of ≥ 3 characters for the trigram index (substrings, CJK). */
  trigram: string[];
  /** CJK strings under 3 characters: too short for trigrams, matched with LIKE. */
  shortCjk: string[];
  hasCjk: boolean;
}

/** Weight of another form of a query verb, and of time words in a "when" question, against a query word. */
export const VARIANT_WEIGHT = 0.6;
export const TIME_WORD_WEIGHT = 0.15;

/**
 * A "when" question is answered by a message that places the event in time ("yesterday I went…",
 * "last week"), so such words join the query at a low weight.
 */
const TIME_WORDS = ['yesterday', 'today', 'tonight', 'tomorrow', 'ago', 'last', 'week', 'weekend', 'month', 'year', 'recently'];
const ASKS_WHEN = /\b(when|what (?:date|day|time|year|month))\b/iu;

export function parseQuery(query: string): ParsedQuery {
  const { ranges, rest } = extractQueryDates(query.normalize('NFKC'));
  const words = [...rest.toLowerCase().matchAll(WORD)].map((match) => [...match[0]].slice(0, MAX_TERM_CHARS).join(''));
  const contentWords = words.filter((word) => !STOP_WORDS.has(word) && (CJK.test(word) || [...word].length > 1));
  // A query made only of function words ("what did we do") still searches for them rather than nothing.
  const content = [...new Set(contentWords.length > 0 ? contentWords : words)].slice(0, MAX_TERMS);
  const length = (word: string) => [...word].length;
  const terms = new Map<string, number>(content.map((text) => [text, 1]));
  const addTerm = (text: string, weight: number) => terms.set(text, Math.max(terms.get(text) ?? 0, weight));
  for (const word of content) for (const form of otherVerbForms(word)) addTerm(form, VARIANT_WEIGHT);
  if (ASKS_WHEN.test(query)) for (const word of TIME_WORDS) addTerm(word, TIME_WORD_WEIGHT);
  return {
    terms: [...terms].map(([text, weight]) => ({ text, weight })),
    dates: ranges,
    words: content,
    trigram: content.filter((word) => length(word) >= 3),
    shortCjk: content.filter((word) => length(word) < 3 && CJK.test(word)),
    hasCjk: content.some((word) => CJK.test(word)),
  };
}
