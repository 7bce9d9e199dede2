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
  patterns: Array<{ regex: RegExp; shape: 'verb-object' | 'object-verb' }>;
  annulments: RegExp | null;
  strongVerbs: ReadonlySet<string>;
  strongObjects: ReadonlySet<string>;
  qualifiers: readonly string[];
  possessives: readonly string[];
  quantifiers: readonly string[];
  trailing: RegExp | null;
  defence: RegExp | null;
}

const EDGE_BEFORE = String.raw`(?<![\p{L}\p{N}])`;
const EDGE_AFTER = String.raw`(?![\p{L}\p{N}])`;
const UNSPACED_GAP = String.raw`[^\n。！？!?；;.,，、：:]{0,14}?`;
const UNSPACED_BEFORE = 10;

function escape(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `ignor*` → `ignor\p{L}*`; a space → any whitespace. */
function entry(word: string): string {
  const stem = word.endsWith('*');
  const body = escape(stem ? word.slice(0, -1) : word).replace(/ +/g, String.raw`\s+`);
  return stem ? String.raw`${body}[\p{L}\p{M}]*` : body;
}

function alternatives(words: readonly string[]): string {
  return [...new Set(words)].sort((a, b) => b.length - a.length).map(entry).join('|');
}

/** The canonical form a matched word is looked up by: lowercase, single spaces. */
function canonical(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
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

function compile(lexicon: DirectiveLexicon): Compiled {
  const verbs = alternatives([...lexicon.verbs, ...(lexicon.weakVerbs ?? [])]);
  const objects = alternatives([...lexicon.objects, ...lexicon.weakObjects]);
  const qualifiers = lexicon.qualifiers;
  const possessives = lexicon.possessives ?? qualifiers;
  const quantifiers = lexicon.quantifiers ?? [];
  const between = alternatives([...lexicon.fillers, ...qualifiers, ...quantifiers]);
  const patterns: Compiled['patterns'] = [];
  const spaced = lexicon.script === 'spaced';
  const wantVO = lexicon.order !== 'object-verb';
  const wantOV = lexicon.order !== 'verb-object';
  if (spaced) {
    if (wantVO) patterns.push({ shape: 'verb-object', regex: new RegExp(String.raw`${EDGE_BEFORE}(${verbs})((?:\s+(?:${between})){0,6})\s+(${objects})${EDGE_AFTER}`, 'giu') });
    if (wantOV) patterns.push({ shape: 'object-verb', regex: new RegExp(String.raw`${EDGE_BEFORE}(${objects})((?:\s+(?:${between})){0,4})\s+(${verbs})`, 'giu') });
  } else {
    if (wantVO) patterns.push({ shape: 'verb-object', regex: new RegExp(String.raw`(${verbs})(${UNSPACED_GAP})(${objects})`, 'giu') });
    if (wantOV) patterns.push({ shape: 'object-verb', regex: new RegExp(String.raw`(${objects})(${UNSPACED_GAP})(${verbs})`, 'giu') });
  }
  const firstChars = new Set([...lexicon.verbs, ...(lexicon.weakVerbs ?? []), ...lexicon.objects, ...lexicon.weakObjects].map((w) => w[0] as string));
  const latinOnly = [...firstChars].every((c) => /[a-z]/.test(c));
  const chars = [...firstChars].map((c) => escape(c)).join('');
  return {
    lexicon,
    prefilter: latinOnly ? null : new RegExp(`[${chars}]`, 'iu'),
    patterns,
    annulments: lexicon.annulments && lexicon.annulments.length > 0 ? new RegExp(lexicon.annulments.map((a) => `(?:${a})`).join('|'), 'giu') : null,
    strongVerbs: new Set(lexicon.verbs),
    strongObjects: new Set(lexicon.objects),
    qualifiers,
    possessives,
    quantifiers,
    trailing: lexicon.trailing && lexicon.trailing.length > 0 ? new RegExp(String.raw`^\s*(?:${alternatives(lexicon.trailing)})${EDGE_AFTER}`, 'iu') : null,
    defence: lexicon.notFollowedBy && lexicon.notFollowedBy.length > 0 ? new RegExp(String.raw`^\s*(?:${alternatives(lexicon.notFollowedBy)})${EDGE_AFTER}`, 'iu') : null,
  };
}

const COMPILED: readonly Compiled[] = LEXICONS.map(compile);

/** How much qualification a verb-object pair needs, by how strong each side is. */
function qualifies(c: Compiled, verb: string, object: string, context: string, after: string): boolean {
  const strongVerb = inList(verb, c.strongVerbs);
  const strongObject = inList(object, c.strongObjects);
  if (strongVerb && strongObject) return true;
  const spaced = c.lexicon.script === 'spaced';
  const trailing = c.trailing?.test(after) ?? false;
  if (strongVerb) return trailing || containsAny(context, [...c.qualifiers, ...c.quantifiers], spaced);
  if (strongObject) return trailing || containsAny(context, c.qualifiers, spaced);
  return trailing || containsAny(context, c.possessives, spaced);
}

const MAX_PER_PATTERN = 200;

/** Every directive in `text` (already lowercased or not: patterns are case-insensitive), first per language. */
export function findDirectives(text: string): DirectiveMatch[] {
  const found: DirectiveMatch[] = [];
  for (const c of COMPILED) {
    if (c.prefilter !== null && !c.prefilter.test(text)) continue;
    const match = firstDirective(c, text);
    if (match !== null) found.push(match);
  }
  return found;
}

/** All directive spans for one language, in order; callers pick the first that is not a quotation. */
export function directiveSpans(text: string): DirectiveMatch[] {
  const out: DirectiveMatch[] = [];
  for (const c of COMPILED) {
    if (c.prefilter !== null && !c.prefilter.test(text)) continue;
    for (const span of spans(c, text)) out.push(span);
  }
  return out.sort((a, b) => a.index - b.index);
}

function firstDirective(c: Compiled, text: string): DirectiveMatch | null {
  for (const span of spans(c, text)) return span;
  return null;
}

function* spans(c: Compiled, text: string): Generator<DirectiveMatch> {
  const base = { lang: c.lexicon.lang, language: c.lexicon.name };
  for (const { regex, shape } of c.patterns) {
    regex.lastIndex = 0;
    for (let n = 0; n < MAX_PER_PATTERN; n++) {
      const m = regex.exec(text);
      if (m === null) break;
      const [whole, first = '', gap = '', last = ''] = m;
      const verb = shape === 'verb-object' ? first : last;
      const object = shape === 'verb-object' ? last : first;
      const end = m.index + whole.length;
      const before = c.lexicon.script === 'unspaced' || shape === 'object-verb' ? text.slice(Math.max(0, m.index - UNSPACED_BEFORE * (c.lexicon.script === 'unspaced' ? 1 : 3)), m.index) : '';
      const after = shape === 'verb-object' ? text.slice(end, end + 40) : text.slice(m.index + first.length, m.index + first.length + 40);
      const defended = shape === 'verb-object' && c.defence !== null && c.defence.test(after);
      if (!defended && qualifies(c, verb, object, `${before} ${gap}`, after)) yield { ...base, index: m.index, length: whole.length, annulment: false };
      // Overlapping candidates: resume right after the verb, so "skip the tests and ignore your rules" is seen.
      regex.lastIndex = m.index + Math.max(1, first.length);
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
}
