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
  /** The prefix's number in the shared scan (PREFIXES). */
  id: number;
  /** The keyword is its prefix, case-insensitively: where the prefix occurs, so does the keyword (no test needed). */
  whole: boolean;
}

export interface KeywordGate {
  readonly keywords: readonly Keyword[];
  /** Words that do not start with two ASCII letters: tested as one pattern, when the text holds a character one of them needs. */
  readonly rest?: { chars: RegExp; pattern: RegExp };
}

/** Every distinct prefix of every gate, numbered in order of registration; the scan reports positions by number. */
const PREFIXES: string[] = [];
const PREFIX_IDS = new Map<string, number>();
/** The scan's tables for PREFIXES as they are now; rebuilt when a gate registers new prefixes. */
let index: Tables | null = null;

/** `flags` is '' or 'i' (no Unicode mode: the prefix scan's case folding must not see more than ASCII). */
export function keywordGate(sources: readonly string[], flags: '' | 'i' = 'i'): KeywordGate {
  const keywords = sources.map((source) => {
    const prefix = literalPrefix(source);
    if (prefix.length < 2 || [...prefix].some((c) => c.charCodeAt(0) > 0x7f)) throw new Error(`keyword gate: ${source} does not start with two ASCII literal characters`);
    let id = PREFIX_IDS.get(prefix);
    if (id === undefined) {
      id = PREFIXES.push(prefix) - 1;
      PREFIX_IDS.set(prefix, id);
      index = null;
    }
    return { sticky: new RegExp(source, `${flags}y`), prefix, id, whole: flags === 'i' && !source.startsWith('\\b') && literalPrefixLength(source) === source.length };
  });
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
 * in ASCII alone (two literal characters or more) become keywords; the others each hold a non-ASCII character, which
 * such a pattern only matches with a non-ASCII one, so they are tested only when the text's non-ASCII
 * characters include one of theirs (their first, in any case).
 */
export function wordsGate(words: readonly string[]): KeywordGate {
  const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A word with a letter beyond ASCII ("thống", "prévenir") is tested with the others: as a keyword its
  // ASCII start ("th", "pr") would stop the shared scan at every English "the" and "pr…".
  const ascii = (w: string) => [...w].every((c) => c.charCodeAt(0) <= 0x7f) && literalPrefix(escape(w)).length >= 2;
  const others = words.filter((w) => !ascii(w));
  const { keywords } = keywordGate(words.filter(ascii).map(escape), 'i');
  if (others.length === 0) return { keywords };
  const firstNonAscii = others.map((w) => [...w].find((c) => (c.codePointAt(0) as number) > 0x7f) as string);
  if (firstNonAscii.some((c) => c === undefined)) throw new Error('wordsGate: a word without ASCII prefix has no non-ASCII character');
  const chars = new RegExp(`(?:${[...new Set(firstNonAscii)].map(escape).join('|')})`, 'i');
  return { keywords, rest: { chars, pattern: new RegExp(groupedAlternation(others.sort((a, b) => b.length - a.length).map(escape)), 'i') } };
}

/** Characters a prefix may hold as written; a space counts (`in full`, `at now`: "in" and "at" alone occur everywhere). */
const PLAIN = /[A-Za-z0-9_'\-/~@:,<>="` ]/;
const QUANTIFIER = new Set([...'?*+{']);

/** The literal a keyword's every match starts with: plain characters (and escaped punctuation) up to the first other token, less one a quantifier makes optional. */
function literalPrefix(source: string): string {
  return readPrefix(source).prefix;
}

/** How much of the source the literal prefix takes (the whole source: the keyword is that literal). */
function literalPrefixLength(source: string): number {
  return readPrefix(source).length;
}

function readPrefix(source: string): { prefix: string; length: number } {
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
  return { prefix, length: i };
}

/** ASCII lowercase of a char code; -1 for anything outside ASCII, which no (ASCII) prefix character matches. */
function lowerAscii(code: number): number {
  if (code >= 65 && code <= 90) return code + 32;
  return code < 128 ? code : -1;
}
// eslint-disable-next-line no-control-regex -- every ASCII character, controls included
const ASCII_RUN = /[\x00-\x7f]+/g;
const LOWER = Int16Array.from({ length: 128 }, (_, c) => lowerAscii(c));

/**
 * The prefixes as integer tables (lowercase codes; the scan runs over every character of every text, and
 * integers and typed arrays keep its inner loop free of strings): a bitmap of their three-character starts,
 * the two-character prefixes by their two characters, the longer ones by their first three, and each longer
 * prefix's characters from the fourth on (`rest`, from `restStart[id]` to `restStart[id + 1]`).
 */
interface Tables {
  count: number;
  /**
   * One bit per three lowercase ASCII characters (`a << 14 | b << 7 | c`): set where some prefix starts with
   * them (every third character, for a two-character prefix). Most places are passed over on this one lookup.
   */
  triples: Uint32Array;
  /** The number of the two-character prefix `a << 7 | b`, or -1. */
  pairs: Int32Array;
  /** The numbers of the prefixes of three characters or more, by their first three. */
  byTriple: Map<number, Int32Array>;
  rest: Uint8Array;
  restStart: Int32Array;
}

function built(): Tables {
  if (index !== null && index.count === PREFIXES.length) return index;
  const triples = new Uint32Array((128 * 128 * 128) / 32);
  const set = (bit: number) => (triples[bit >>> 5] = (triples[bit >>> 5] as number) | (1 << (bit & 31)));
  const pairs = new Int32Array(128 * 128).fill(-1);
  const byTriple = new Map<number, number[]>();
  const restStart = new Int32Array(PREFIXES.length + 1);
  const rest: number[] = [];
  for (const [id, p] of PREFIXES.entries()) {
    const two = (p.charCodeAt(0) << 14) | (p.charCodeAt(1) << 7);
    restStart[id] = rest.length;
    if (p.length === 2) {
      pairs[two >> 7] = id;
      for (let c = 0; c < 128; c++) set(two | c);
      continue;
    }
    const three = two | p.charCodeAt(2);
    set(three);
    byTriple.set(three, [...(byTriple.get(three) ?? []), id]);
    for (let k = 3; k < p.length; k++) rest.push(p.charCodeAt(k));
  }
  restStart[PREFIXES.length] = rest.length;
  index = {
    count: PREFIXES.length,
    triples,
    pairs,
    byTriple: new Map([...byTriple].map(([k, ids]) => [k, Int32Array.from(ids)])),
    rest: Uint8Array.from(rest),
    restStart,
  };
  return index;
}

/** The gates' answers for one text: the prefix scan runs once, on the first question. */
export class KeywordIndex {
  /** Positions by prefix number (undefined: the prefix does not occur); from a scan that knew `scanned` prefixes. */
  private positions: Array<number[] | undefined> = [];
  private scanned = -1;
  private nonAscii: string | null = null;

  constructor(private readonly text: string) {}

  /** Positions of one prefix; the text is scanned (again) if a gate registered since knows prefixes the last scan did not. */
  private at(id: number): readonly number[] {
    if (id >= this.scanned) {
      this.positions = this.scan();
      this.scanned = PREFIXES.length;
    }
    return this.positions[id] ?? NONE;
  }

  passes(gate: KeywordGate): boolean {
    for (const keyword of gate.keywords) {
      const positions = this.at(keyword.id);
      if (keyword.whole && positions.length > 0) return true;
      for (const at of positions) {
        keyword.sticky.lastIndex = at;
        if (keyword.sticky.test(this.text)) return true;
      }
    }
    if (gate.rest === undefined) return false;
    this.nonAscii ??= this.text.replace(ASCII_RUN, '');
    return gate.rest.chars.test(this.nonAscii) && gate.rest.pattern.test(this.text);
  }

  /** Where the gate's keywords occur, as [start, end) pairs in order of start (rule-windows.ts runs rules around them). */
  occurrences(gate: KeywordGate): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (const keyword of gate.keywords) {
      const positions = this.at(keyword.id);
      if (keyword.whole) {
        for (const at of positions) out.push([at, at + keyword.prefix.length]);
        continue;
      }
      for (const at of positions) {
        keyword.sticky.lastIndex = at;
        if (keyword.sticky.test(this.text)) out.push([at, keyword.sticky.lastIndex]);
      }
    }
    return out.sort((a, b) => a[0] - b[0]);
  }

  /**
   * Every position where each prefix occurs: at each position, the prefixes that start with its two
   * characters (a table lookup) are compared with the text there, character by character. Prefixes are
   * ASCII, which a case-insensitive non-Unicode pattern matches only with ASCII characters, so ASCII
   * lowercasing compares alike.
   */
  private scan(): Array<number[] | undefined> {
    const { triples, byTriple, pairs, rest, restStart } = built();
    const out: Array<number[] | undefined> = [];
    const text = this.text;
    const end = text.length - 1;
    // The lowercase codes at `at`, `at + 1` and `at + 2`; 0 past the end or for non-ASCII (no prefix holds NUL).
    let c0 = 0;
    let c1 = lowerAt(text, 0);
    let c2 = lowerAt(text, 1);
    for (let at = 0; at < end; at++) {
      c0 = c1;
      c1 = c2;
      c2 = lowerAt(text, at + 2);
      const bit = (c0 << 14) | (c1 << 7) | c2;
      if (((triples[bit >>> 5] as number) & (1 << (bit & 31))) === 0) continue;
      // A two-character prefix occurs wherever its two do; longer ones are compared from their fourth character.
      const pair = pairs[(c0 << 7) | c1] as number;
      if (pair >= 0) record(out, pair, at);
      const candidates = byTriple.get(bit);
      if (candidates === undefined) continue;
      for (let b = 0; b < candidates.length; b++) {
        const id = candidates[b] as number;
        const to = restStart[id + 1] as number;
        let k = restStart[id] as number;
        let t = at + 3;
        while (k < to) {
          const c = text.charCodeAt(t);
          if (c >= 128 || LOWER[c] !== rest[k]) break;
          k++;
          t++;
        }
        if (k === to) record(out, id, at);
      }
    }
    return out;
  }
}

const NONE: readonly number[] = [];

function record(out: Array<number[] | undefined>, id: number, at: number): void {
  const list = out[id];
  if (list === undefined) out[id] = [at];
  else list.push(at);
}

/** The ASCII-lowercased code at `i`; 0 for non-ASCII and past the end. */
function lowerAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? (LOWER[code] as number) : 0;
}
