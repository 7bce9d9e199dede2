/**
 * A word class as a regular-expression alternation, with the branches that start with the same character
 * grouped behind it: `ignore|forget|ignoring` becomes `ignore|ignoring` under one `i`, `forget` under `f`
 * (`i(?:gnore|gnoring)|forget`). V8 tries an alternation's branches one after the other at every position
 * of the text, so a class of a hundred words cost about a hundred quick checks per character; grouped, a
 * position is checked once per first character. Word classes open most rules, so this halves their cost.
 *
 * It matches exactly what the flat alternation matches, the same branch first:
 * - two branches can only match at the same position if their first characters match the same character
 *   of the text; grouping is by identical first character, and it is refused (the flat alternation is
 *   returned) when two different first characters could match the same text character under any flags
 *   (`A` and `a` under `i`, `s` and `ſ` under `iu`), so the branches that can compete are in one group;
 * - inside a group the branches keep their order, so the engine tries the same branches in the same order
 *   and backtracks the same way; the order of the groups does not matter, only one can start at a position;
 * - only branches that open with a plain character, or an escaped punctuation character (`\.`), not
 *   followed by a quantifier, and with no top-level `|`, are grouped; any other branch (a group, a class,
 *   an anchor) makes the whole list fall back to the flat alternation.
 */
export function groupedAlternation(sources: readonly string[], depth = 3): string {
  const flat = sources.join('|');
  const heads: Array<{ char: string; atom: string; rest: string }> = [];
  for (const source of sources) {
    const head = splitHead(source);
    if (head === null) return flat;
    heads.push(head);
  }
  const chars = [...new Set(heads.map((h) => h.char))];
  for (let i = 0; i < chars.length; i++) {
    for (let j = i + 1; j < chars.length; j++) if (couldMatchSame(chars[i] as string, chars[j] as string)) return flat;
  }
  const groups = new Map<string, Array<{ atom: string; rest: string }>>();
  for (const h of heads) {
    const group = groups.get(h.char);
    if (group === undefined) groups.set(h.char, [h]);
    else group.push(h);
  }
  return [...groups.values()]
    .map((group) => (group.length === 1 ? `${group[0]?.atom}${group[0]?.rest}` : `${group[0]?.atom}(?:${rests(group.map((g) => g.rest), depth)})`))
    .join('|');
}

/** A group's tails, grouped the same way a few levels down (`i(?:g(?:nore|noring))`); the same argument holds at each level. */
function rests(tails: readonly string[], depth: number): string {
  return depth > 1 ? groupedAlternation(tails, depth - 1) : tails.join('|');
}

const SPECIAL = new Set([...'\\^$.|?*+()[]{}']);
const QUANTIFIER = new Set([...'?*+{']);

/** The first atom of a branch when it is one literal character, with the rest; null when it is anything else. */
function splitHead(source: string): { char: string; atom: string; rest: string } | null {
  if (source === '' || hasTopLevelBar(source)) return null;
  let char: string;
  let atom: string;
  if (source[0] === '\\') {
    const escaped = source[1];
    if (escaped === undefined || /[\p{L}\p{N}_]/u.test(escaped)) return null;
    char = escaped;
    atom = source.slice(0, 2);
  } else {
    const code = source.codePointAt(0) as number;
    const first = String.fromCodePoint(code);
    // A special character is not a literal; nor is a lone surrogate (a pair is one character).
    if (SPECIAL.has(first) || (code >= 0xd800 && code <= 0xdfff)) return null;
    char = first;
    atom = first;
  }
  const rest = source.slice(atom.length);
  if (rest !== '' && QUANTIFIER.has(rest[0] as string)) return null;
  return { char, atom, rest };
}

/** The branches of a regex source's top-level alternation (`a|b(c|d)` → `a`, `b(c|d)`); escapes and classes respected. */
export function topLevelBranches(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(source.slice(from, i));
      from = i + 1;
    }
  }
  out.push(source.slice(from));
  return out;
}

export function hasTopLevelBar(source: string): boolean {
  return topLevelBranches(source).length > 1;
}

/** Whether two different literal characters can match one character of a text, under the loosest flags. */
function couldMatchSame(a: string, b: string): boolean {
  const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const flags of ['i', 'iu']) {
    if (new RegExp(`^${escape(a)}$`, flags).test(b) || new RegExp(`^${escape(b)}$`, flags).test(a)) return true;
  }
  return a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();
}
