import { groupedAlternation } from './alternation.js';
import { LEXICONS } from './lexicons/index.js';
import type { DirectiveLexicon } from './lexicons/types.js';

/**
 * Directive detection: a verb that drops instructions ("ignore", "disregard", "忽略") aimed at the agent's
 * instructions ("your rules", "the system prompt", "以前の指示"), with only filler words between them. It is
 * compiled from the language tables in lexicons/, so "ignore the directions above", "forget all your rules
 * and system prompts" and "please disregard every single one of the earlier guidelines" are one rule, not
 * three. How strong the verb and the object are decides whether a qualifier is needed (see types.ts).
 */

export interface DirectiveMatch {
  lang: string;
  language: string;
  index: number;
  length: number;
  /** An annulment ("previous instructions are void") rather than a verb-object pair. */
  annulment: boolean;
}

interface Compiled {
  lexicon: DirectiveLexicon;
  /** A cheap test for whether the text could hold one of the lexicon's verbs at all (its script). */
  prefilter: RegExp | null;
  /**
   * The prefilter holds no character an ASCII one can match (no ASCII letter, no `ſ` or Kelvin `K`, which fold
   * to ASCII under `iu`), so it can be run on the text's non-ASCII characters alone.
   */
  prefilterNonAscii: boolean;
  /**
   * `candidates` finds where the pattern's first part could start (a plain alternation, no Unicode mode,
   * no look-behind: fast); `regex` (sticky) is tried only there. Running every language's full pattern
   * over a whole document instead cost more than all other rules together.
   */
  patterns: Pattern[];
  annulments: RegExp | null;
  /**
   * Annulments searched near their words. Latin-script tables find the words in the shared candidate scan;
   * `words` finds them otherwise.
   */
  nearWords: NearGroup[];
  strongVerbs: ReadonlySet<string>;
  strongObjects: ReadonlySet<string>;
  /** The lexicon's object patterns, anchored: a matched object that is one of them is a strong object. */
  strongObjectPattern: RegExp | null;
  qualifiers: readonly string[];
  possessives: readonly string[];
  quantifiers: readonly string[];
  trailing: RegExp | null;
  defence: RegExp | null;
  reported: RegExp | null;
  /** DirectiveLexicon.notOrderedBefore, anchored at the verb. */
  notOrdered: RegExp | null;
  /** DirectiveLexicon.gerundCue, anchored at the verb. */
  gerundCue: RegExp | null;
  /** DirectiveLexicon.negatedVerb, anchored at the verb's start. */
  negatedVerb: RegExp | null;
  /** For Latin-script tables: the first word of each first part, so a table none of whose words occur is skipped. */
  gate: { words: ReadonlySet<string>; stems: readonly string[] } | null;
}

interface NearGroup {
  wordList: readonly string[];
  words: RegExp;
  annulments: RegExp;
}

interface Pattern {
  regex: RegExp;
  candidates: RegExp;
  candidateWords: readonly string[];
  /** The words the pattern's first part starts with, for the shared Latin candidate scan. */
  firstWords: readonly string[];
  shape: 'verb-object' | 'object-verb';
  /** For a separable verb ("set … to one side"): what must follow the object. */
  particle?: RegExp;
  /** A cheap test that a particle follows at all, near the head: "set" opens thousands of README sentences. */
  particleHint?: RegExp;
  /** The pattern has the modifier slot (DirectiveLexicon.modifierSlot): only strong verbs and objects. */
  modifier?: boolean;
}

const EDGE_BEFORE = String.raw`(?<![\p{L}\p{N}])`;
const EDGE_AFTER = String.raw`(?![\p{L}\p{N}])`;
const UNSPACED_GAP = String.raw`[^\n。！？!?；;.,，、：:]{0,14}?`;
const UNSPACED_BEFORE = 10;

function escape(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `ignor*` → `ignor\p{L}*`; a space → any whitespace; an apostrophe → either apostrophe (`operator’s`). */
function entry(word: string): string {
  const stem = word.endsWith('*');
  const body = escape(stem ? word.slice(0, -1) : word).replace(/ +/g, String.raw`\s+`).replace(/'/g, "['\u2019]");
  return stem ? String.raw`${body}[\p{L}\p{M}]*` : body;
}

function alternatives(words: readonly string[]): string {
  return groupedAlternation([...new Set(words)].sort((a, b) => b.length - a.length).map(entry));
}

/** The canonical form a matched word is looked up by: lowercase, single spaces. */
function canonical(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').replace(/\u2019/g, "'");
}

/** Whether `word` (as matched) is one of `entries`, honouring stems. */
function inList(word: string, entries: ReadonlySet<string> | readonly string[]): boolean {
  const w = canonical(word);
  for (const e of entries) if (e.endsWith('*') ? w.startsWith(e.slice(0, -1)) : w === e) return true;
  return false;
}

function containsAny(segment: string, words: readonly string[], spaced: boolean): boolean {
  if (segment.trim() === '') return false;
  if (!spaced) return words.some((w) => segment.includes(w));
  const tokens = canonical(segment).trim().split(' ');
  return tokens.some((t) => inList(t, words)) || words.some((w) => w.includes(' ') && canonical(segment).includes(w));
}

/** The first part's words as sources for a fast pre-scan: stems without their tail, spaces as any whitespace. */
function candidateWords(words: readonly string[]): string[] {
  const plain = [...new Set(words.map((w) => (w.endsWith('*') ? w.slice(0, -1) : w)))].sort((a, b) => b.length - a.length);
  return plain.map((w) => escape(w).replace(/ +/g, String.raw`\s+`));
}

function candidates(words: readonly string[]): { candidates: RegExp; candidateWords: readonly string[] } {
  const sources = candidateWords(words);
  return { candidates: new RegExp(groupedAlternation(sources), 'gi'), candidateWords: sources };
}

/**
 * Between a spaced verb and its object: filler words, or an aside set off by commas and then filler words
 * ("disregard, for the moment and without exception, the safety constraints").
 */
function spacedGap(between: string): string {
  return String.raw`(?:\s+(?:${between})){0,6}|,[^,.;:!?\n]{1,60},(?:\s+(?:${between})){0,6}`;
}

function compile(lexicon: DirectiveLexicon): Compiled {
  const verbList = [...lexicon.verbs, ...(lexicon.weakVerbs ?? [])];
  const objectList = [...lexicon.objects, ...lexicon.weakObjects];
  const verbs = alternatives([...lexicon.verbs, ...(lexicon.weakVerbs ?? [])]);
  const objectPatterns = lexicon.objectPatterns ?? [];
  const objects = objectPatterns.length > 0 ? `${alternatives(objectList)}|${objectPatterns.map((p) => `(?:${p})`).join('|')}` : alternatives(objectList);
  const qualifiers = lexicon.qualifiers;
  const possessives = lexicon.possessives ?? qualifiers;
  const quantifiers = lexicon.quantifiers ?? [];
  const between = alternatives([...lexicon.fillers, ...qualifiers, ...quantifiers]);
  const patterns: Compiled['patterns'] = [];
  const spaced = lexicon.script === 'spaced';
  const wantVO = lexicon.order !== 'object-verb';
  const wantOV = lexicon.order !== 'verb-object';
  if (spaced) {
    if (wantVO) patterns.push({ shape: 'verb-object', firstWords: verbList, ...candidates(verbList), regex: new RegExp(String.raw`${EDGE_BEFORE}(${verbs})(${spacedGap(between)})\s+(${objects})${EDGE_AFTER}`, 'iuy') });
    if (wantOV) patterns.push({ shape: 'object-verb', firstWords: objectList, ...candidates(objectList), regex: new RegExp(String.raw`${EDGE_BEFORE}(${objects})((?:\s+(?:${between})){0,4})\s+(${verbs})`, 'iuy') });
    if (wantVO && lexicon.modifierSlot !== undefined) {
      // The slot is one word (letters, an inner hyphen or apostrophe) right before a strong object, after the fillers.
      // Nor a possessive ("the page's instructions" are a third party's; the reader's own are in the qualifiers).
      const slot = String.raw`\s+(?!(?:${alternatives(lexicon.modifierSlot.except)})${EDGE_AFTER}|[\p{L}\p{N}-]+['’]s${EDGE_AFTER})[\p{L}][\p{L}\p{N}'’-]{0,24}`;
      patterns.push({ shape: 'verb-object', firstWords: lexicon.verbs, ...candidates(lexicon.verbs), modifier: true, regex: new RegExp(String.raw`${EDGE_BEFORE}(${alternatives(lexicon.verbs)})((?:${spacedGap(between)})${slot})\s+(${alternatives(lexicon.objects)})${EDGE_AFTER}`, 'iuy') });
    }
    for (const { heads, particles } of lexicon.separableVerbs ?? []) {
      patterns.push({
        shape: 'verb-object',
        firstWords: heads,
        ...candidates(heads),
        regex: new RegExp(String.raw`${EDGE_BEFORE}(${alternatives(heads)})(${spacedGap(between)})\s+(${objects})${EDGE_AFTER}`, 'iuy'),
        particle: new RegExp(String.raw`^\s*(?:${alternatives(particles)})${EDGE_AFTER}`, 'iu'),
        particleHint: new RegExp(groupedAlternation(candidateWords(particles.map((p) => p.split(' ').at(-1) as string))), 'i'),
      });
    }
  } else {
    if (wantVO) patterns.push({ shape: 'verb-object', firstWords: verbList, ...candidates(verbList), regex: new RegExp(String.raw`(${verbs})(${UNSPACED_GAP})(${objects})`, 'iuy') });
    if (wantOV) patterns.push({ shape: 'object-verb', firstWords: objectList, ...candidates(objectList), regex: new RegExp(String.raw`(${objects})(${UNSPACED_GAP})(${verbs})`, 'iuy') });
  }
  const trailing = [...(lexicon.trailing && lexicon.trailing.length > 0 ? [alternatives(lexicon.trailing)] : []), ...(lexicon.trailingPatterns ?? []).map((p) => `(?:${p})`)];
  const firstChars = new Set([...lexicon.verbs, ...(lexicon.weakVerbs ?? []), ...lexicon.objects, ...lexicon.weakObjects].map((w) => w[0] as string));
  for (const { heads } of lexicon.separableVerbs ?? []) for (const head of heads) firstChars.add(head[0] as string);
  const latinOnly = [...firstChars].every((c) => /[a-z]/.test(c));
  const chars = [...firstChars].map((c) => escape(c)).join('');
  return {
    lexicon,
    prefilter: latinOnly ? null : new RegExp(`[${chars}]`, 'iu'),
    prefilterNonAscii: [...firstChars].every((ch) => (ch.codePointAt(0) as number) > 0x7f && ch !== '\u017f' && ch !== '\u212a'),
    patterns,
    annulments: lexicon.annulments && lexicon.annulments.length > 0 ? new RegExp(lexicon.annulments.map((a) => `(?:${a})`).join('|'), 'giu') : null,
    nearWords: (lexicon.nearWords ?? []).map(({ words, patterns: sources }) => ({
      wordList: words,
      words: new RegExp(groupedAlternation(candidateWords(words)), 'gi'),
      annulments: new RegExp(sources.map((a) => `(?:${a})`).join('|'), 'giu'),
    })),
    strongVerbs: new Set(lexicon.verbs),
    strongObjects: new Set(lexicon.objects),
    strongObjectPattern: objectPatterns.length > 0 ? new RegExp(`^(?:${objectPatterns.map((p) => `(?:${p})`).join('|')})$`, 'iu') : null,
    qualifiers,
    possessives,
    quantifiers,
    trailing: trailing.length > 0 ? new RegExp(String.raw`^\s*(?:${trailing.join('|')})${EDGE_AFTER}`, 'iu') : null,
    gate: latinOnly ? gateOf(patterns.flatMap((p) => p.firstWords)) : null,
    reported: lexicon.reportedBefore === undefined ? null : new RegExp(lexicon.reportedBefore, 'iu'),
    notOrdered: lexicon.notOrderedBefore === undefined ? null : new RegExp(`(?:${lexicon.notOrderedBefore})$`, 'iu'),
    gerundCue: lexicon.gerundCue === undefined ? null : new RegExp(`(?:${lexicon.gerundCue})$`, 'iu'),
    negatedVerb: lexicon.negatedVerb === undefined ? null : new RegExp(`^(?:${lexicon.negatedVerb})`, 'iu'),
    defence: lexicon.notFollowedBy && lexicon.notFollowedBy.length > 0 ? new RegExp(String.raw`^\s*(?:${alternatives(lexicon.notFollowedBy)})${EDGE_AFTER}`, 'iu') : null,
  };
}

function gateOf(entries: readonly string[]): Compiled['gate'] {
  const firsts = entries.map((e) => (e.split(' ')[0] as string).toLowerCase());
  return { words: new Set(firsts.filter((w) => !w.endsWith('*'))), stems: firsts.filter((w) => w.endsWith('*')).map((w) => w.slice(0, -1)) };
}

/** What a candidate position is for: a pattern of a table, or one of its groups of near-word annulments. */
type PatternRef = { compiled: Compiled; pattern: Pattern; near?: undefined } | { compiled: Compiled; pattern?: undefined; near: NearGroup };
const MAX_WORD = 40;

/**
 * The compiled tables, built on first use rather than at import: importing the scanner should cost a command that
 * never scans (`hearth memory show`, `hearth sessions list`) nothing, and compiling every language took most of
 * the import (issue 12, "start fast").
 */
function buildTables() {
  const COMPILED: readonly Compiled[] = LEXICONS.map(compile);

  /**
   * One candidate scan for every Latin-script table at once: the union of their first words, each match
   * dispatched to the tables that have a word the matched text starts with. Scanning each table's words
   * separately cost a pass over the document per language.
   */
  const LATIN_FIRST_WORDS = new Map<string, PatternRef[]>();
  const LATIN_STEMS: Array<[string, PatternRef]> = [];
  /**
   * For a first word that opens only phrases ("let" of "let go of", "you" of "you need not follow"): the
   * phrases, as a sticky test run before the pattern is. "let's" and "you" are everywhere in a README, and
   * the pattern is costly to try.
   */
  const PHRASES_ONLY = new Map<string, Map<PatternRef, RegExp>>();
  for (const compiled of COMPILED) {
    if (compiled.gate === null) continue;
    const sources: Array<[PatternRef, readonly string[]]> = [
      ...compiled.patterns.map((pattern): [PatternRef, readonly string[]] => [{ compiled, pattern }, pattern.firstWords]),
      ...compiled.nearWords.map((near): [PatternRef, readonly string[]] => [{ compiled, near }, near.wordList]),
    ];
    // One ref per pattern: candidate lists are keyed by it.
    for (const [ref, words] of sources) {
      const phrases = new Map<string, string[] | null>();
      for (const word of words) {
        const first = (word.split(' ')[0] as string).toLowerCase();
        if (first.endsWith('*')) LATIN_STEMS.push([first.slice(0, -1), ref]);
        else if (!(LATIN_FIRST_WORDS.get(first) ?? []).includes(ref)) LATIN_FIRST_WORDS.set(first, [...(LATIN_FIRST_WORDS.get(first) ?? []), ref]);
        if (first.endsWith('*')) continue;
        const known = phrases.get(first);
        if (!word.includes(' ') || known === null) phrases.set(first, null);
        else phrases.set(first, [...(known ?? []), word]);
      }
      for (const [first, list] of phrases) {
        if (list === null) continue;
        const byRef = PHRASES_ONLY.get(first) ?? new Map<PatternRef, RegExp>();
        byRef.set(ref, new RegExp(alternatives(list), 'iuy'));
        PHRASES_ONLY.set(first, byRef);
      }
    }
  }
  const LATIN_CANDIDATES = new RegExp(
    groupedAlternation(
      [...new Set([...LATIN_FIRST_WORDS.keys(), ...LATIN_STEMS.map(([stem]) => stem)])].sort((a, b) => b.length - a.length).map(escape),
    ),
    'gi',
  );
  /** LATIN_STEMS by their first character: a candidate is compared only with the stems it can start. */
  const STEMS_BY_FIRST = new Map<string, Array<[string, PatternRef]>>();
  for (const entry of LATIN_STEMS) STEMS_BY_FIRST.set(entry[0][0] as string, [...(STEMS_BY_FIRST.get(entry[0][0] as string) ?? []), entry]);
  const FIRST_WORD_LENGTHS = [...new Set([...LATIN_FIRST_WORDS.keys()].map((w) => w.length))].sort((a, b) => a - b);

  const SHARED_REFS: Array<{ compiled: Compiled; pattern: Pattern }> = COMPILED.filter((c) => c.gate === null && c.prefilter !== null && !c.prefilterNonAscii).flatMap((compiled) => compiled.patterns.map((pattern) => ({ compiled, pattern })));
  const SHARED_COMPILED: ReadonlySet<Compiled> = new Set(SHARED_REFS.map((r) => r.compiled));
  const SHARED_STICKY = new Map(SHARED_REFS.map((ref) => [ref, new RegExp(ref.pattern.candidates.source, 'iy')]));
  const SHARED_CANDIDATES = new RegExp(groupedAlternation([...new Set(SHARED_REFS.flatMap((r) => r.pattern.candidateWords))].sort((a, b) => b.length - a.length)), 'gi');
  return { COMPILED, LATIN_FIRST_WORDS, LATIN_STEMS, PHRASES_ONLY, LATIN_CANDIDATES, STEMS_BY_FIRST, FIRST_WORD_LENGTHS, SHARED_REFS, SHARED_COMPILED, SHARED_STICKY, SHARED_CANDIDATES };
}

let built: ReturnType<typeof buildTables> | null = null;
function tables(): ReturnType<typeof buildTables> {
  built ??= buildTables();
  return built;
}

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 0xc0 && code <= 0x24f) || (code >= 0x1e00 && code <= 0x1eff);
}

function latinCandidates(text: string): Map<PatternRef, number[]> {
  const { LATIN_CANDIDATES, FIRST_WORD_LENGTHS, PHRASES_ONLY, LATIN_FIRST_WORDS, STEMS_BY_FIRST } = tables();
  const found = new Map<PatternRef, number[]>();
  const add = (ref: PatternRef, at: number) => {
    const list = found.get(ref);
    if (list === undefined) found.set(ref, [at]);
    else if (list[list.length - 1] !== at) list.push(at);
  };
  LATIN_CANDIDATES.lastIndex = 0;
  for (let tried = 0; tried < MAX_CANDIDATES; tried++) {
    const m = LATIN_CANDIDATES.exec(text);
    if (m === null) break;
    const at = m.index;
    LATIN_CANDIDATES.lastIndex = at + 1;
    // Inside a word ("re|move"): the sticky pattern's look-behind would refuse it anyway.
    if (at > 0 && isLetter(text.charCodeAt(at - 1))) continue;
    const word = text.slice(at, at + MAX_WORD).toLowerCase();
    // The alternation is longest first, so no first word matching here is longer than what it matched.
    const longest = m[0].length;
    for (const len of FIRST_WORD_LENGTHS) {
      if (len > word.length || len > longest) break;
      const first = word.slice(0, len);
      const phrases = PHRASES_ONLY.get(first);
      for (const ref of LATIN_FIRST_WORDS.get(first) ?? []) {
        const phrase = phrases?.get(ref);
        if (phrase !== undefined) {
          phrase.lastIndex = at;
          if (!phrase.test(text)) continue;
        }
        add(ref, at);
      }
    }
    for (const [stem, ref] of STEMS_BY_FIRST.get(word[0] as string) ?? []) if (word.startsWith(stem)) add(ref, at);
  }
  return found;
}

/** How much qualification a verb-object pair needs, by how strong each side is. */
function qualifies(c: Compiled, verb: string, object: string, context: string, after: string, separated: boolean): boolean {
  const strongVerb = separated || inList(verb, c.strongVerbs);
  // An object pattern names what the agent was given ("what they told you"): it is its own qualifier.
  if (c.strongObjectPattern?.test(object) ?? false) return true;
  const strongObject = inList(object, c.strongObjects);
  if (strongVerb && strongObject) return true;
  const spaced = c.lexicon.script === 'spaced';
  const trailing = c.trailing?.test(after) ?? false;
  if (strongVerb) return trailing || containsAny(context, [...c.qualifiers, ...c.quantifiers], spaced);
  if (strongObject) return trailing || containsAny(context, c.qualifiers, spaced);
  return trailing || containsAny(context, c.possessives, spaced);
}

const MAX_PER_PATTERN = 200;
/** How far after a separable verb's head its particle can end: six filler words, the object, a trailing phrase. */
const PARTICLE_REACH = 200;
// eslint-disable-next-line no-control-regex -- every ASCII character, controls included
const ASCII_RUN = /[\x00-\x7f]+/g;
/** Past this many places a verb could start, the rest of a huge document is not tried (each try is cheap; this bounds the worst case). */
const MAX_CANDIDATES = 20_000;

/**
 * The other tables in Latin script (their words have letters beyond a-z: Spanish, French, German, Turkish…)
 * share one candidate scan as well: one alternation of all their candidate words finds every place where
 * any of them matches, and there each pattern's own candidate expression is tried (sticky). So each pattern
 * gets exactly the positions its own scan would have found, in order and capped alike, for one pass over
 * the text instead of one per pattern.
 */

function sharedCandidates(text: string, active: ReadonlySet<Compiled>): Map<PatternRef, number[]> {
  const { SHARED_REFS, SHARED_CANDIDATES, SHARED_STICKY } = tables();
  const refs = SHARED_REFS.filter((r) => active.has(r.compiled));
  const found = new Map<PatternRef, number[]>(refs.map((r) => [r, []]));
  let open = refs.length;
  SHARED_CANDIDATES.lastIndex = 0;
  while (open > 0) {
    const m = SHARED_CANDIDATES.exec(text);
    if (m === null) break;
    const at = m.index;
    SHARED_CANDIDATES.lastIndex = at + 1;
    for (const ref of refs) {
      const list = found.get(ref) as number[];
      if (list.length >= MAX_CANDIDATES) continue;
      const sticky = SHARED_STICKY.get(ref) as RegExp;
      sticky.lastIndex = at;
      if (!sticky.test(text)) continue;
      list.push(at);
      if (list.length === MAX_CANDIDATES) open--;
    }
  }
  return found;
}

/** Every directive span in `text`, in order of position; callers pick the first per language that is not a quotation. */
export function directiveSpans(text: string): DirectiveMatch[] {
  const { COMPILED, SHARED_COMPILED } = tables();
  const out: DirectiveMatch[] = [];
  const latin = latinCandidates(text);
  // Most documents are nearly all ASCII: the script prefilters of the non-Latin tables read only the rest.
  let nonAscii: string | null = null;
  const active = COMPILED.filter((c) => {
    if (c.prefilter === null) return true;
    if (c.prefilterNonAscii) nonAscii ??= text.replace(ASCII_RUN, '');
    return c.prefilter.test(c.prefilterNonAscii ? (nonAscii as string) : text);
  });
  const activeSet = new Set(active);
  const shared = active.some((c) => SHARED_COMPILED.has(c)) ? sharedCandidates(text, activeSet) : null;
  for (const c of active) for (const span of spans(c, text, c.gate !== null ? latin : SHARED_COMPILED.has(c) ? shared : null)) out.push(span);
  return out.sort((a, b) => a.index - b.index);
}

/** Where `pattern` could start: from the shared Latin scan, or the pattern's own candidate scan. */
function startsOf(c: Compiled, pattern: Compiled['patterns'][number], text: string, latin: Map<PatternRef, number[]> | null): number[] {
  if (latin !== null) {
    for (const [ref, at] of latin) if (ref.pattern === pattern) return at;
    return [];
  }
  const out: number[] = [];
  pattern.candidates.lastIndex = 0;
  for (let tried = 0; tried < MAX_CANDIDATES; tried++) {
    const m = pattern.candidates.exec(text);
    if (m === null) break;
    out.push(m.index);
    pattern.candidates.lastIndex = m.index + 1;
  }
  return out;
}

function* spans(c: Compiled, text: string, latin: Map<PatternRef, number[]> | null): Generator<DirectiveMatch> {
  const base = { lang: c.lexicon.lang, language: c.lexicon.name };
  for (const pattern of c.patterns) {
    const { regex, shape } = pattern;
    let n = 0;
    for (const start of startsOf(c, pattern, text, latin)) {
      if (n >= MAX_PER_PATTERN) break;
      if (pattern.particleHint !== undefined && !pattern.particleHint.test(text.slice(start, start + PARTICLE_REACH))) continue;
      regex.lastIndex = start;
      const m = regex.exec(text);
      if (m === null) continue;
      n++;
      const [whole, first = '', gap = '', last = ''] = m;
      const verb = shape === 'verb-object' ? first : last;
      const object = shape === 'verb-object' ? last : first;
      const end = m.index + whole.length;
      const before = c.lexicon.script === 'unspaced' || shape === 'object-verb' ? text.slice(Math.max(0, m.index - UNSPACED_BEFORE * (c.lexicon.script === 'unspaced' ? 1 : 3)), m.index) : '';
      const after = shape === 'verb-object' ? text.slice(end, end + 40) : text.slice(m.index + first.length, m.index + first.length + 40);
      if (pattern.particle !== undefined && !pattern.particle.test(after)) continue;
      const defended = (shape === 'verb-object' && c.defence !== null && c.defence.test(after)) || (c.reported !== null && c.reported.test(text.slice(Math.max(0, m.index - 160), m.index)));
      if (shape === 'verb-object' && c.notOrdered !== null && c.notOrdered.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
      if (shape === 'object-verb' && c.negatedVerb !== null && c.negatedVerb.test(`${verb}${text.slice(end, end + 24)}`)) continue;
      if (shape === 'verb-object' && c.gerundCue !== null && /ing$/i.test(verb.split(/\s/)[0] as string) && !c.gerundCue.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
      if (!defended && qualifies(c, verb, object, `${before} ${gap}`, after, pattern.particle !== undefined)) yield { ...base, index: m.index, length: whole.length, annulment: false };
    }
  }
  if (c.annulments !== null) {
    c.annulments.lastIndex = 0;
    for (let n = 0; n < MAX_PER_PATTERN; n++) {
      const m = c.annulments.exec(text);
      if (m === null) break;
      yield { ...base, index: m.index, length: m[0].length, annulment: true };
      if (m[0].length === 0) c.annulments.lastIndex++;
    }
  }
  for (const near of c.nearWords) yield* annulmentsNear(near, text, base, latin);
}

/** How far an annulment can reach before and after the word it holds ("… are hereby rescinded"). */
const NEAR_BEFORE = 300;
const NEAR_REACH_AFTER = 140;

function nearWordPositions(near: NearGroup, text: string, latin: Map<PatternRef, number[]> | null): number[] {
  if (latin !== null) {
    for (const [ref, at] of latin) if (ref.near === near) return at;
    return [];
  }
  const out: number[] = [];
  near.words.lastIndex = 0;
  for (let tried = 0; tried < MAX_CANDIDATES; tried++) {
    const m = near.words.exec(text);
    if (m === null) break;
    out.push(m.index);
    near.words.lastIndex = m.index + m[0].length;
  }
  return out;
}

/** The near-word annulments, each searched in the windows around its words (overlapping windows merged). */
function* annulmentsNear(near: NearGroup, text: string, base: { lang: string; language: string }, latin: Map<PatternRef, number[]> | null): Generator<DirectiveMatch> {
  const windows: Array<[number, number]> = [];
  for (const at of nearWordPositions(near, text, latin)) {
    let start = Math.max(0, at - NEAR_BEFORE);
    // Not from inside a word: "all rules are void" must not be read out of "small rules are void".
    while (start > 0 && isLetter(text.charCodeAt(start - 1))) start--;
    const end = Math.min(text.length, at + NEAR_REACH_AFTER);
    const last = windows.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = end;
    else windows.push([start, end]);
  }
  let n = 0;
  for (const [start, end] of windows) {
    const window = text.slice(start, end);
    near.annulments.lastIndex = 0;
    for (;;) {
      if (n >= MAX_PER_PATTERN) return;
      const m = near.annulments.exec(window);
      if (m === null) break;
      n++;
      yield { ...base, index: start + m.index, length: m[0].length, annulment: true };
      if (m[0].length === 0) near.annulments.lastIndex++;
    }
  }
}
