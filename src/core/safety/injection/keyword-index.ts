import { groupedAlternation, hasTopLevelBar, topLevelBranches } from './alternation.js';

/**
 * Keyword gates, answered from one scan of the text. A gate is a list of keywords (small expressions, one
 * branch each) of which every match of its rule must contain one; the rule runs only when one occurs.
 * Testing each gate as its own expression cost a pass over the document per rule, about as much as the
 * rule itself; here every keyword starts with a literal prefix (two ASCII characters or more), one pass over
 * the text finds where each occurs, and each keyword is tried (sticky) only where its prefix does. The answer is exactly
 * `new RegExp(keyword, flags).test(text)` for some keyword: a keyword can only match where its prefix does.
 */

interface Keyword {
  sticky: RegExp;
  /** Lowercase literal every match of the keyword starts with (case-insensitively): ASCII only. */
  prefix: string;
}

export interface KeywordGate {
  readonly keywords: readonly Keyword[];
  /** Words that do not start with two ASCII letters: tested as one pattern, when the text holds a character one of them needs. */
  readonly rest?: { chars: RegExp; pattern: RegExp };
}

const ALL: Keyword[] = [];
/** The prefixes by their first two characters (`first << 7 | second`). */
let index: { byStart: ReadonlyArray<readonly string[] | null>; firsts: Uint8Array } | null = null;

/** `flags` is '' or 'i' (no Unicode mode: the prefix scan's case folding must not see more than ASCII). */
export function keywordGate(sources: readonly string[], flags: '' | 'i' = 'i'): KeywordGate {
  const keywords = sources.map((source) => {
    const prefix = literalPrefix(source);
    if (prefix.length < 2 || [...prefix].some((c) => c.charCodeAt(0) > 0x7f)) throw new Error(`keyword gate: ${source} does not start with two ASCII literal characters`);
    return { sticky: new RegExp(source, `${flags}y`), prefix };
  });
  ALL.push(...keywords);
  index = null;
  return { keywords };
}

/**
 * The same test as `pattern.test(text)`, as a keyword gate: one keyword per top-level branch (a pattern
 * matches where one of its branches does). Null when a branch does not start with two ASCII literal
 * characters or the flags are not '' or 'i'; the caller then keeps testing the pattern.
 */
export function keywordGateOf(pattern: RegExp): KeywordGate | null {
  if (pattern.flags !== 'i' && pattern.flags !== '') return null;
  const branches = topLevelBranches(pattern.source);
  if (branches.some((b) => { const p = literalPrefix(b); return p.length < 2 || [...p].some((c) => c.charCodeAt(0) > 0x7f); })) return null;
  return keywordGate(branches, pattern.flags);
}

/**
 * A gate for plain words (other-language word lists, matched case-insensitively, no Unicode mode): those
 * that start with two ASCII characters become keywords; the others each hold a non-ASCII character, which
 * such a pattern only matches with a non-ASCII one, so they are tested only when the text's non-ASCII
 * characters include one of theirs (their first, in any case).
 */
export function wordsGate(words: readonly string[]): KeywordGate {
  const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ascii = (w: string) => { const p = literalPrefix(escape(w)); return p.length >= 2 && [...p].every((c) => c.charCodeAt(0) <= 0x7f); };
  const others = words.filter((w) => !ascii(w));
  const { keywords } = keywordGate(words.filter(ascii).map(escape), 'i');
  if (others.length === 0) return { keywords };
  const firstNonAscii = others.map((w) => [...w].find((c) => (c.codePointAt(0) as number) > 0x7f) as string);
  if (firstNonAscii.some((c) => c === undefined)) throw new Error('wordsGate: a word without ASCII prefix has no non-ASCII character');
  const chars = new RegExp(`(?:${[...new Set(firstNonAscii)].map(escape).join('|')})`, 'i');
  return { keywords, rest: { chars, pattern: new RegExp(groupedAlternation(others.sort((a, b) => b.length - a.length).map(escape)), 'i') } };
}

const PLAIN = /[A-Za-z0-9_'\-/~@:,<>="`]/;
const QUANTIFIER = new Set([...'?*+{']);

/** The literal a keyword's every match starts with: plain characters (and escaped punctuation) up to the first other token, less one a quantifier makes optional. */
function literalPrefix(source: string): string {
  if (hasTopLevelBar(source)) throw new Error(`keyword gate: ${source} has more than one branch`);
  let i = source.startsWith('\\b') ? 2 : 0;
  let prefix = '';
  while (i < source.length) {
    let char: string;
    let width: number;
    if (source[i] === '\\') {
      const escaped = source[i + 1];
      if (escaped === undefined || /[A-Za-z0-9]/.test(escaped)) break;
      char = escaped;
      width = 2;
    } else {
      char = source[i] as string;
      if (!PLAIN.test(char)) break;
      width = 1;
    }
    if (QUANTIFIER.has(source[i + width] as string)) break;
    prefix += char.toLowerCase();
    i += width;
  }
  return prefix;
}

/** ASCII lowercase of a char code; -1 for anything outside ASCII, which no (ASCII) prefix character matches. */
function lowerAscii(code: number): number {
  if (code >= 65 && code <= 90) return code + 32;
  return code < 128 ? code : -1;
}
// eslint-disable-next-line no-control-regex -- every ASCII character, controls included
const ASCII_RUN = /[\x00-\x7f]+/g;
const LOWER = Int16Array.from({ length: 128 }, (_, c) => lowerAscii(c));

function built(): NonNullable<typeof index> {
  if (index !== null) return index;
  const byStart = new Map<number, string[]>();
  for (const p of new Set(ALL.map((k) => k.prefix))) {
    const start = (p.charCodeAt(0) << 7) | p.charCodeAt(1);
    byStart.set(start, [...(byStart.get(start) ?? []), p]);
  }
  const firsts = new Uint8Array(128);
  for (const start of byStart.keys()) firsts[start >> 7] = 1;
  // Upper-case letters start what their lower-case form starts.
  for (let c = 65; c <= 90; c++) firsts[c] = firsts[c + 32] as number;
  index = { byStart: Array.from({ length: 128 * 128 }, (_, i) => byStart.get(i) ?? null), firsts };
  return index;
}

/** The gates' answers for one text: the prefix scan runs once, on the first question. */
export class KeywordIndex {
  private positions: Map<string, number[]> | null = null;
  private nonAscii: string | null = null;

  constructor(private readonly text: string) {}

  passes(gate: KeywordGate): boolean {
    const positions = (this.positions ??= this.scan());
    for (const keyword of gate.keywords) {
      for (const at of positions.get(keyword.prefix) ?? []) {
        keyword.sticky.lastIndex = at;
        if (keyword.sticky.test(this.text)) return true;
      }
    }
    if (gate.rest === undefined) return false;
    this.nonAscii ??= this.text.replace(ASCII_RUN, '');
    return gate.rest.chars.test(this.nonAscii) && gate.rest.pattern.test(this.text);
  }

  /**
   * Every position where each prefix occurs: at each position, the prefixes that start with its two
   * characters (a table lookup) are compared with the text there, character by character. Prefixes are ASCII, which a case-insensitive non-Unicode pattern
   * matches only with ASCII characters, so ASCII lowercasing compares alike.
   */
  private scan(): Map<string, number[]> {
    const { byStart, firsts } = built();
    const out = new Map<string, number[]>();
    const text = this.text;
    const end = text.length - 1;
    for (let at = 0; at < end; at++) {
      const code = text.charCodeAt(at);
      if (code >= 128 || firsts[code] === 0) continue;
      const second = text.charCodeAt(at + 1);
      if (second >= 128) continue;
      const bucket = byStart[((LOWER[code] as number) << 7) | (LOWER[second] as number)];
      if (bucket === null || bucket === undefined) continue;
      for (const prefix of bucket) {
        let k = 2;
        while (k < prefix.length && lowerAscii(text.charCodeAt(at + k)) === prefix.charCodeAt(k)) k++;
        if (k < prefix.length) continue;
        const list = out.get(prefix);
        if (list === undefined) out.set(prefix, [at]);
        else list.push(at);
      }
    }
    return out;
  }
}
