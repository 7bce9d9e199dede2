import { groupedAlternation } from './alternation.js';

/**
 * Keyword gates, answered from one scan of the text. A gate is a list of keywords (small expressions, one
 * branch each) of which every match of its rule must contain one; the rule runs only when one occurs.
 * Testing each gate as its own expression cost a pass over the document per rule, about as much as the
 * rule itself; here every keyword starts with a literal prefix, one alternation of all prefixes finds where
 * any occurs, and each keyword is tried (sticky) only where its prefix does. The answer is exactly
 * `new RegExp(keyword, flags).test(text)` for some keyword: a keyword can only match where its prefix does.
 */

interface Keyword {
  sticky: RegExp;
  /** Lowercase literal every match of the keyword starts with (case-insensitively): ASCII only. */
  prefix: string;
}

export interface KeywordGate {
  readonly keywords: readonly Keyword[];
}

const ALL: Keyword[] = [];
let index: { scan: RegExp; prefixes: ReadonlySet<string>; lengths: readonly number[]; longest: number } | null = null;

/** `flags` is '' or 'i' (no Unicode mode: the prefix scan's case folding must not see more than ASCII). */
export function keywordGate(sources: readonly string[], flags: '' | 'i' = 'i'): KeywordGate {
  const keywords = sources.map((source) => {
    const prefix = literalPrefix(source);
    if (prefix === '') throw new Error(`keyword gate: ${source} does not start with a literal`);
    return { sticky: new RegExp(source, `${flags}y`), prefix };
  });
  ALL.push(...keywords);
  index = null;
  return { keywords };
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

function hasTopLevelBar(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

function built(): NonNullable<typeof index> {
  if (index !== null) return index;
  const prefixes = new Set(ALL.map((k) => k.prefix));
  const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const sorted = [...prefixes].sort((a, b) => b.length - a.length);
  const lengths = [...new Set(sorted.map((p) => p.length))].sort((a, b) => a - b);
  index = { scan: new RegExp(groupedAlternation(sorted.map(escape)), 'gi'), prefixes, lengths, longest: lengths[lengths.length - 1] ?? 0 };
  return index;
}

/** The gates' answers for one text: the prefix scan runs once, on the first question. */
export class KeywordIndex {
  private positions: Map<string, number[]> | null = null;

  constructor(private readonly text: string) {}

  passes(gate: KeywordGate): boolean {
    const positions = (this.positions ??= this.scan());
    for (const keyword of gate.keywords) {
      for (const at of positions.get(keyword.prefix) ?? []) {
        keyword.sticky.lastIndex = at;
        if (keyword.sticky.test(this.text)) return true;
      }
    }
    return false;
  }

  /**
   * Every position where each prefix occurs. The scan visits every position where any prefix matches
   * (it steps one character past each match); there the text is compared with every prefix length, so
   * prefixes shorter or longer than the one the alternation chose are seen too. Prefixes are ASCII, which
   * a case-insensitive non-Unicode pattern only matches with ASCII letters, so lowercasing compares alike.
   */
  private scan(): Map<string, number[]> {
    const { scan, prefixes, lengths, longest } = built();
    const out = new Map<string, number[]>();
    scan.lastIndex = 0;
    for (;;) {
      const m = scan.exec(this.text);
      if (m === null) break;
      const at = m.index;
      scan.lastIndex = at + 1;
      const head = this.text.slice(at, at + longest).toLowerCase();
      for (const length of lengths) {
        if (length > head.length) break;
        const key = head.slice(0, length);
        if (!prefixes.has(key)) continue;
        const list = out.get(key);
        if (list === undefined) out.set(key, [at]);
        else list.push(at);
      }
    }
    return out;
  }
}
