/**
 * Lexical comparison of short statements, for merging near-duplicate user facts and for answering
 * `user_model` questions. No model in the path: it must be cheap, deterministic and explainable.
 */

/** Function words and the words every fact shares ("the user …"). Negations are kept: they change meaning. */
const STOP_WORDS = new Set(
  `a an the and or of to in on at for with by from as is are was were be been being it its this that these those
   user users user's they them their he she his her has have had do does did which who whom what when where how
   about into over than then so such very also just like`.split(/\s+/),
);

/** A light suffix stripper: "prefers"/"preferred"/"preferring" → "prefer", "tabs" → "tab". */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ied')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2).replace(/(.)\1$/, '$1');
  if (word.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Content terms of `text`, stemmed, in order (duplicates kept, for bigrams). */
export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'+#.-]*/gu) ?? [])
    .map((w) => w.replace(/[.'-]+$/, ''))
    .filter((w) => w && !STOP_WORDS.has(w))
    .map(stem);
}

function jaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

function bigrams(words: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < words.length; i++) out.add(`${words[i - 1]} ${words[i]}`);
  return out;
}

/**
 * Are two statements the same fact in other words? Most content terms shared (Jaccard ≥ 0.6) and at
 * least one word pair in the same order — so "prefers tabs over spaces" and "prefers spaces over tabs"
 * (same words, opposite meaning) are not merged.
 */
export function isNearDuplicate(a: string, b: string): boolean {
  const ta = terms(a);
  const tb = terms(b);
  if (jaccard(new Set(ta), new Set(tb)) < 0.6) return false;
  const ba = bigrams(ta);
  const bb = bigrams(tb);
  if (ba.size === 0 || bb.size === 0) return true;
  for (const pair of ba) if (bb.has(pair)) return true;
  return false;
}
