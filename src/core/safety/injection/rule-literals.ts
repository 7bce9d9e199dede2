import { parseRegExpLiteral, type AST } from '@eslint-community/regexpp';

/**
 * What a rule's regular expression says about its matches, read off its syntax tree:
 * - `literals`: strings one of which every match contains (the rarest such set the pattern offers), so a
 *   rule can be run only around where they occur (rule-windows.ts);
 * - `maxLength`, `lookbehind`, `lookahead`: how long a match can be and how far before its start and past
 *   its end its look-arounds read, each unbounded repetition counted as SPAN characters;
 * - `anchors`: where it uses `^` or `$` (without the `m` flag those match only at the text's two ends).
 *
 * The reading is conservative: anything it does not understand (a back-reference, a class of many
 * characters, an optional part) contributes no literal, so `literals` is null rather than wrong.
 */

export interface PatternFacts {
  /**
   * Null: no set of literals is required (or none the keyword scan can find). `before` and `after`: how far a
   * match can reach before the start of the literal it contains and past its end.
   */
  literals: { set: readonly string[]; before: number; after: number } | null;
  maxLength: number;
  lookbehind: number;
  lookahead: number;
  /**
   * Every match starts at the text's start or with a line break (`(?:^|\n)…`): the engine finds those
   * places by itself about as fast as a keyword scan, so such a rule gains nothing from windows.
   */
  lineAnchored: boolean;
  /** Where `^` and `$` sit in `pattern.source` (offsets of each one-character token). */
  anchors: { start: number[]; end: number[] };
}

/**
 * What an unbounded repetition (`\s+`, `\w*`, `[^\n]+`) is taken to cover at most when bounding how long a
 * match can be: matches whose repetitions cover more are not sought when a rule runs in windows.
 */
export const SPAN = 40;
/** Cross products of exact-string sets stop here: a set this large is a poor gate anyway. */
const MAX_SET = 64;
/** Longer literals are hardly rarer; capping the runs keeps the reading linear in the pattern's length. */
const MAX_RUN = 12;
/** A small character class (`[sz]`, `[Aa]`) is read as its characters. */
const MAX_CLASS = 4;

/** An estimate of how often a literal occurs in ordinary text: short strings and common words occur everywhere. */
const COMMON_WORDS = new Set(
  'a an the and or not no to of in on at as by for from with without is are be been was were you your we i it its this that these those all any do does did can will should must may have has had if then than so up out into about there here what which who how when where now new'.split(' '),
);
function frequency(literal: string): number {
  const word = literal.trim();
  const base = 4 ** (7 - Math.min(word.length, 7));
  return COMMON_WORDS.has(word) ? base * 30 : base;
}
function setCost(set: readonly string[]): number {
  return set.reduce((sum, s) => sum + frequency(s), 0);
}

/**
 * A keyword must open with two printable ASCII characters (the shared prefix scan starts from those:
 * keyword-index.ts), be three characters or more and not a common word: "ai", "no", "et" or "the" occur
 * in every other line, and finding them all would cost more than the rule they are meant to spare.
 */
const MIN_LITERAL = 3;
function scannable(literal: string): boolean {
  return literal.length >= MIN_LITERAL && /^[\x21-\x7e]{2}/.test(literal) && !COMMON_WORDS.has(literal.toLowerCase());
}

/** A set of literals every match contains, and how far a match reaches before a literal's start and past its end. */
interface Required {
  set: string[];
  before: number;
  after: number;
}

interface Info {
  /** Every string the node can match, when that is a small finite set; null otherwise. */
  exact: string[] | null;
  /** Strings one of which every match of the node contains; null when there is no such (scannable) set. */
  required: Required | null;
  /** Strings one of which every match starts with (`w(?:ill|ould\s+not)` starts with `will` or `would`); null when unknown. */
  starts: string[] | null;
  min: number;
  max: number;
}

export function patternFacts(pattern: RegExp): PatternFacts {
  const ast = parseRegExpLiteral(pattern);
  const ignoreCase = ast.flags.ignoreCase;
  const facts = { lookbehind: 0, lookahead: 0, anchors: { start: [] as number[], end: [] as number[] } };
  // Node offsets count the literal's opening slash.
  const offset = (node: AST.Node) => node.start - 1;
  const fold = (code: number) => String.fromCodePoint(ignoreCase && code >= 65 && code <= 90 ? code + 32 : code);

  const better = (a: Required | null, b: Required | null): Required | null => {
    if (a === null) return b;
    if (b === null) return a;
    return setCost(b.set) < setCost(a.set) ? b : a;
  };
  const product = (a: string[], b: string[]): string[] | null => {
    if (a.length * b.length > MAX_SET) return null;
    if (a.length === 1 && b.length === 1) return [(a[0] as string) + (b[0] as string)];
    return [...new Set(a.flatMap((x) => b.map((y) => x + y)))];
  };
  const asRequired = (exact: string[] | null, before: number, after: number): Required | null =>
    exact !== null && exact.every(scannable) ? { set: exact, before, after } : null;

  function disjunction(alternatives: readonly AST.Alternative[]): Info {
    const infos = alternatives.map(sequence);
    return {
      exact: union(infos.map((i) => i.exact)),
      required: unionRequired(infos.map((i) => i.required)),
      starts: union(infos.map((i) => i.starts)),
      min: Math.min(...infos.map((i) => i.min)),
      max: Math.max(...infos.map((i) => i.max)),
    };
  }

  function sequence(alternative: AST.Alternative): Info {
    const infos = alternative.elements.map(element);
    // How long the parts before part i (`upTo[i]`) and after it (`from[i + 1]`) can be.
    const upTo = [0];
    for (const info of infos) upTo.push((upTo.at(-1) as number) + info.max);
    const past = [0];
    for (const info of [...infos].reverse()) past.unshift((past[0] as number) + info.max);
    const total = upTo.at(-1) as number;
    const before = (i: number) => upTo[i] as number;
    const after = (i: number) => past[i + 1] as number;
    let required: Required | null = null;
    for (const [i, info] of infos.entries()) {
      const r = info.required;
      if (r !== null) required = better(required, { set: r.set, before: before(i) + r.before, after: after(i) + r.after });
    }
    // Runs of consecutive exact parts spell literals (`f` `r` `e` `e` `(?:of|from)` → `freeof`, `freefrom`): from each
    // part, the longest run whose cross product stays small is a candidate.
    for (let i = 0; i < infos.length; i++) {
      if (infos[i]?.exact === null) continue;
      let run: string[] = [''];
      let j = i;
      for (; j < infos.length && j - i < MAX_RUN; j++) {
        const exact = infos[j]?.exact ?? null;
        const next = exact === null ? null : product(run, exact);
        if (next === null) {
          // The run ends at a part that is not one of a few strings, but may start with one of a few.
          const starts = infos[j]?.starts ?? null;
          const joined = starts === null ? null : product(run, starts);
          if (joined !== null) required = better(required, asRequired(joined, before(i), (infos[j]?.max ?? Infinity) + after(j)));
          break;
        }
        run = next;
      }
      if (j > i + 1) required = better(required, asRequired(run, before(i), after(j - 1)));
    }
    let exact: string[] | null = [''];
    for (const info of infos) exact = exact === null || info.exact === null ? null : product(exact, info.exact);
    // What the sequence starts with: its leading exact parts, then what the first other part starts with.
    let starts: string[] | null = [''];
    for (const info of infos) {
      if (info.exact !== null) {
        starts = product(starts, info.exact);
        if (starts === null) break;
        continue;
      }
      starts = info.starts === null ? starts : product(starts, info.starts);
      break;
    }
    if (starts !== null && starts.some((s) => s === '')) starts = null;
    return { exact, starts, required: better(required, asRequired(exact, 0, 0)), min: infos.reduce((n, i) => n + i.min, 0), max: total };
  }

  function element(node: AST.Element): Info {
    switch (node.type) {
      case 'Character': {
        return { exact: [fold(node.value)], starts: [fold(node.value)], required: null, min: 1, max: 1 };
      }
      case 'CharacterClass': {
        const chars = classChars(node);
        const exact = chars === null ? null : [...new Set(chars.map((c) => fold(c.codePointAt(0) as number)))];
        return { exact, starts: exact, required: null, min: 1, max: 1 };
      }
      case 'CharacterSet':
        return { exact: null, starts: null, required: null, min: 1, max: 1 };
      case 'Group':
      case 'CapturingGroup':
        return disjunction(node.alternatives);
      case 'Quantifier': {
        const inner = element(node.element);
        // An unbounded repetition counts as at most SPAN characters (the definition in rule-windows.ts).
        const max = node.max === Infinity ? Math.max(SPAN, times(inner.max, node.min)) : times(inner.max, node.max);
        const exact = node.min === 0 && node.max === 1 && inner.exact !== null ? [...new Set(['', ...inner.exact])] : node.min === 1 && node.max === 1 ? inner.exact : null;
        // The literal may sit in any repetition: the others can come before or after it.
        const others = node.max === Infinity ? max : times(inner.max, node.max - 1);
        const r = inner.required ?? asRequired(inner.exact, 0, 0);
        const required = node.min >= 1 && r !== null ? { set: r.set, before: r.before + others, after: r.after + others } : null;
        return { exact, starts: node.min >= 1 ? inner.starts : null, required, min: inner.min * node.min, max };
      }
      case 'Assertion': {
        if (node.kind === 'start') facts.anchors.start.push(offset(node));
        if (node.kind === 'end') facts.anchors.end.push(offset(node));
        if (node.kind === 'lookahead' || node.kind === 'lookbehind') {
          const inner = disjunction(node.alternatives);
          if (node.kind === 'lookbehind') facts.lookbehind = Math.max(facts.lookbehind, inner.max);
          else facts.lookahead = Math.max(facts.lookahead, inner.max);
        }
        return { exact: [''], starts: null, required: null, min: 0, max: 0 };
      }
      default:
        // Back-references and anything newer: nothing known.
        return { exact: null, starts: null, required: null, min: 0, max: Infinity };
    }
  }

  const info = disjunction(ast.pattern.alternatives);
  const lineAnchored = ast.pattern.alternatives.every(startsAtLine);
  const literals = info.required === null || !info.required.set.every(scannable) ? null : info.required;
  return { literals, maxLength: info.max, lineAnchored, ...facts };
}

/** Whether every match of the alternative starts at `^` or with a line break. */
function startsAtLine(alternative: AST.Alternative): boolean {
  const first = alternative.elements[0];
  if (first === undefined) return false;
  if (first.type === 'Assertion') return first.kind === 'start';
  if (first.type === 'Character') return first.value === 0x0a;
  if (first.type === 'Group' || first.type === 'CapturingGroup') return first.alternatives.every(startsAtLine);
  return false;
}

/** A length bound times a count; zero times anything (unbounded too) is zero. */
function times(length: number, count: number): number {
  return length === 0 || count === 0 ? 0 : length * count;
}

function unionRequired(all: ReadonlyArray<Required | null>): Required | null {
  if (all.some((r) => r === null)) return null;
  const set = union(all.map((r) => (r as Required).set));
  if (set === null) return null;
  return { set, before: Math.max(...all.map((r) => (r as Required).before)), after: Math.max(...all.map((r) => (r as Required).after)) };
}

/** The union of the sets, when each is known and together they stay small. */
function union(sets: ReadonlyArray<string[] | null>): string[] | null {
  let size = 0;
  for (const set of sets) {
    if (set === null) return null;
    size += set.length;
  }
  if (size > MAX_SET * 4) return null;
  const out = [...new Set(sets.flat() as string[])];
  return out.length <= MAX_SET ? out : null;
}

/** The characters of a small, non-negated class of plain characters and short ranges; null otherwise. */
function classChars(node: AST.CharacterClass): string[] | null {
  if (node.negate || node.unicodeSets) return null;
  const out: string[] = [];
  for (const e of node.elements) {
    if (e.type === 'Character') out.push(String.fromCodePoint(e.value));
    else if (e.type === 'CharacterClassRange' && e.max.value - e.min.value < MAX_CLASS) {
      for (let c = e.min.value; c <= e.max.value; c++) out.push(String.fromCodePoint(c));
    } else return null;
    if (out.length > MAX_CLASS) return null;
  }
  return out.length === 0 ? null : out;
}
