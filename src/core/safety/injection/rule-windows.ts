import { keywordGate, type KeywordGate, type KeywordIndex } from './keyword-index.js';
import { patternFacts } from './rule-literals.js';

/**
 * Running a rule only around its keywords. Every match of a rule contains one of a few literals read off its
 * pattern (rule-literals.ts); on a long document the rule's expression is run on windows around where those
 * occur instead of over the whole text, which most rules used to scan end to end for nothing.
 *
 * The definition (what a rule finds): the matches of the rule's expression that are at most REACH characters
 * long and whose look-arounds read at most REACH characters beyond them. A longer match is not sought (it may
 * still be found, when its window happens to hold it). Every rule's quantifiers are bounded except `\s+`,
 * `\w+` and their like, so a longer match means a run of REACH blank lines or a REACH-character word.
 *
 * Why a window gives the same matches as the whole text, for those:
 * - a window is [k - REACH - behind, k + REACH + ahead] around each keyword occurrence k, widened to whole
 *   lines, and overlapping windows are merged: every such match, with what its look-arounds read, lies inside
 *   one window, so it is found there at the same place;
 * - nothing is found in a window that the whole text does not match: the window's edges are line edges (or the
 *   text's), where `\b`, `\B` and one-character look-arounds see the same as in the whole text; longer
 *   look-behinds and look-aheads, for a match inside the window, read only inside it (the `behind`/`ahead`
 *   margins); `^` and `$`, which without the `m` flag match only at the text's ends, are replaced by a
 *   failing `(?!)` in a window that does not reach that end;
 * - matches are then met in the same order as scanning the whole text (windows are disjoint and in order,
 *   and the leftmost match from any place lies in a window), so the caller's first-order logic, quoted
 *   mentions and their cap included, sees the same sequence.
 */
export const REACH = 1000;
/** Below this length a text is one window anyway: the rule runs on it whole, as before. */
const WHOLE_TEXT_BELOW = 4 * REACH;

interface Plan {
  gate: KeywordGate;
  /**
   * Unicode mode with case folding: `ſ` and the Kelvin sign `K` match `s` and `k` (and `\w`, `\b` count them),
   * which the ASCII keyword scan does not see; on a text holding either the rule runs whole. The scanned view
   * is NFKC-normalised, which folds both away, so this is for other callers.
   */
  foldsBeyondAscii: boolean;
  before: number;
  after: number;
  /** The expression (global) for a window at neither, the start, the end, or both ends of the text. */
  variants: { inner: RegExp; atStart: RegExp; atEnd: RegExp; whole: RegExp };
}

/**
 * Each pattern's windowing plan, or null when it is not windowed (no literals, line-anchored, flags other
 * than `i` and `u`, or Unicode mode with a literal beyond ASCII, whose case folding the keyword scan does not model). Built for all patterns together on the
 * first long text: reading the patterns' syntax trees costs a few hundred milliseconds, once per process,
 * and short texts never need it. All at once, so the keyword scan's tables are rebuilt once, before any
 * text is scanned with them.
 */
export class RuleWindows {
  private plans: Map<RegExp, Plan | null> | null = null;

  constructor(private readonly patterns: readonly RegExp[]) {}

  /** Build the plans now if `text` is long enough to use them (call before the text's KeywordIndex is asked anything). */
  prepare(text: string): void {
    if (text.length >= WHOLE_TEXT_BELOW) this.plans ??= new Map(this.patterns.map((p) => [p, buildPlan(p)]));
  }

  /**
   * The windows to run `pattern` on, in order; null when the text is to be scanned whole (short, the rule is
   * not windowed, or its windows would cover most of the text anyway). An empty list: no keyword occurs, so
   * the rule cannot match.
   */
  windows(pattern: RegExp, text: string, keywords: KeywordIndex): Window[] | null {
    if (text.length < WHOLE_TEXT_BELOW) return null;
    const plan = this.plans?.get(pattern) ?? null;
    if (plan === null || (plan.foldsBeyondAscii && /[\u017f\u212a]/.test(text))) return null;
    return windowsOf(plan, text, keywords);
  }
}

function buildPlan(pattern: RegExp): Plan | null {
  const own = pattern.flags.replace('g', '');
  if (!/^i?u?$/.test(own)) return null;
  const facts = patternFacts(pattern);
  if (facts.literals === null || facts.lineAnchored) return null;
  const unicode = own.includes('u');
  // The keyword scan folds ASCII case only; in Unicode mode only all-ASCII literals are read the same (see `windows`).
  if (unicode && !facts.literals.set.every((l) => [...l].every((c) => c.charCodeAt(0) < 0x80))) return null;
  const gate = keywordGate(facts.literals.set.map(literalSource), own.includes('i') ? 'i' : '');
  // A match at most REACH long reaches at most REACH either side of the literal it contains.
  const reach = (side: number) => Math.min(side, facts.maxLength, REACH);
  const global = `${own}g`;
  const replaced = (offsets: readonly number[]) => {
    let source = pattern.source;
    for (const at of [...offsets].sort((a, b) => b - a)) source = `${source.slice(0, at)}(?!)${source.slice(at + 1)}`;
    return new RegExp(source, global);
  };
  const { start, end } = facts.anchors;
  return {
    gate,
    foldsBeyondAscii: unicode && own.includes('i'),
    before: reach(facts.literals.before) + Math.min(facts.lookbehind, REACH),
    after: reach(facts.literals.after) + Math.min(facts.lookahead, REACH),
    variants: { inner: replaced([...start, ...end]), atStart: replaced(end), atEnd: replaced(start), whole: new RegExp(pattern.source, global) },
  };
}

/** A literal as a keyword's source: letters, digits and `_` as written, anything else escaped. */
function literalSource(literal: string): string {
  let out = '';
  for (const ch of literal) {
    const code = ch.codePointAt(0) as number;
    if (/[A-Za-z0-9_]/.test(ch)) out += ch;
    else if (code >= 0x20 && code < 0x7f) out += `\\${ch}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

export interface Window {
  start: number;
  end: number;
  /** The rule's expression for this window (global, lastIndex to be set by the caller). */
  pattern: RegExp;
}

/**
 * Past this share of the text, windows cost more than they save (each is a slice and a fresh start of the
 * engine): the rule runs on the whole text, which finds every match the windows would (and perhaps longer ones).
 */
const MOST = 0.5;

function windowsOf(plan: Plan, text: string, keywords: KeywordIndex): Window[] | null {
  const out: Window[] = [];
  let covered = 0;
  let start = -1;
  let end = -1;
  const flush = () => {
    if (start < 0) return;
    const { inner, atStart, atEnd, whole } = plan.variants;
    const first = start === 0;
    const last = end === text.length;
    out.push({ start, end, pattern: first && last ? whole : first ? atStart : last ? atEnd : inner });
    covered += end - start;
  };
  for (const [at, until] of keywords.occurrences(plan.gate)) {
    const from = lineStart(text, at - plan.before);
    if (from > end) {
      flush();
      start = from;
    }
    if (until + plan.after > end) end = lineEnd(text, until + plan.after);
  }
  flush();
  return covered > text.length * MOST ? null : out;
}

function lineStart(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
}

function lineEnd(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const nl = text.indexOf('\n', at);
  return nl < 0 ? text.length : nl;
}
