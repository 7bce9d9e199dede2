import { codePointLabel, decodeTagMessage, findInvisibleCharacters, type InvisibleCharacter } from './invisible-unicode.js';
import { isQuotedMention } from './mention.js';
import { PHRASING_CATEGORIES, TEXT_RULES, type InjectionCategory, type InjectionSeverity, type TextRule } from './patterns.js';
import { MARKUP_RULES } from './patterns-markup.js';
import { MULTILINGUAL_RULES } from './patterns-multilingual.js';
import { buildTextView } from './text-view.js';

/**
 * The prompt-injection scanner. Anything that will later be read by the model as trusted context goes
 * through it before it is stored: memory entries, user-model facts, skills, imported files. It is a pure
 * function of the text, so every writer gets the same verdict, and so does `hearth scan` later.
 *
 * It is a tripwire, not a proof of safety: it catches the phrasings, tokens and commands real injections
 * use, and it is tuned so ordinary notes pass. Text is matched on the view text-view.ts builds (NFKC,
 * invisible characters removed, look-alike letters, leetspeak and spaced-out letters undone), so
 * `ign\u200Bore previous instructions`, `ｉｇｎｏｒｅ …` or `і g n о r е …` are caught as well as the plain
 * form. A message smuggled in tag characters is decoded and scanned too.
 */

export type ScanVerdict = 'clean' | 'suspicious' | 'blocked';

/** Where the text came from; reported in findings and messages. Callers may use their own names. */
export type ScanSource = 'memory' | 'user' | 'user_model' | 'skill' | 'context_file' | 'soul' | 'tool_output' | 'import' | (string & {});

export interface InjectionFinding {
  /** Rule id from patterns.ts, or `invisible_unicode`. */
  rule: string;
  category: InjectionCategory;
  severity: InjectionSeverity;
  /** The matched text with a little context, invisible characters shown as `<U+200B>`. */
  excerpt: string;
  /** Why it was flagged, in plain words. */
  message: string;
  /** Where the match starts in the scanned text (UTF-16 units); absent for text decoded from hidden tag characters. */
  index?: number;
}

export interface InjectionScanResult {
  verdict: ScanVerdict;
  findings: InjectionFinding[];
  source: ScanSource;
}

export interface ScanOptions {
  source: ScanSource;
  /** Rule ids not to apply (e.g. a skill that documents the ChatML format may skip `chat_template_token`). */
  ignoreRules?: readonly string[];
}

const EXCERPT_CONTEXT = 30;
const EXCERPT_MAX = 120;

/** Every rule, English first; ids are unique across the lists. */
export const ALL_RULES: readonly TextRule[] = [...TEXT_RULES, ...MULTILINGUAL_RULES, ...MARKUP_RULES];
const GLOBAL_PATTERNS = new Map(ALL_RULES.map((r) => [r.id, new RegExp(r.pattern.source, `${r.pattern.flags}g`)]));
/**
 * Bounds the work on long docs. Past this many quoted mentions of one rule the next match counts as an
 * order: failing closed, so an attacker cannot hide an order behind a pile of quotations.
 */
const MAX_MENTIONS_PER_RULE = 50;

export function scanForInjection(text: string, options: ScanOptions): InjectionScanResult {
  const ignored = new Set(options.ignoreRules ?? []);
  const findings: InjectionFinding[] = [];

  const invisible = findInvisibleCharacters(text);
  if (invisible.length > 0 && !ignored.has('invisible_unicode')) findings.push(invisibleFinding(text, invisible));

  const view = buildTextView(text, invisible);
  for (const rule of ALL_RULES) {
    if (ignored.has(rule.id)) continue;
    const match = firstOrder(rule, view.text);
    if (match === null) continue;
    findings.push({ ...describeMatch(rule, view.text, match), index: view.origin[match.index] ?? 0 });
  }

  // Tag characters spell ASCII the reader never sees; the model may still decode it.
  const hidden = decodeTagMessage(invisible);
  if (hidden.trim() !== '') {
    const hiddenView = buildTextView(hidden, []);
    for (const rule of ALL_RULES) {
      if (ignored.has(rule.id) || findings.some((f) => f.rule === rule.id)) continue;
      const match = firstOrder(rule, hiddenView.text);
      if (match === null) continue;
      const found = describeMatch(rule, hiddenView.text, match);
      findings.push({ ...found, excerpt: `[hidden in tag characters] ${found.excerpt}`, message: `${found.message}, hidden in invisible tag characters` });
    }
  }

  const verdict: ScanVerdict = findings.some((f) => f.severity === 'high') ? 'blocked' : findings.length > 0 ? 'suspicious' : 'clean';
  return { verdict, findings, source: options.source };
}

/** The first match that is an order rather than a quotation of one (see mention.ts). */
function firstOrder(rule: TextRule, text: string): RegExpExecArray | null {
  if (!PHRASING_CATEGORIES.has(rule.category)) return rule.pattern.exec(text);
  const pattern = GLOBAL_PATTERNS.get(rule.id) as RegExp;
  pattern.lastIndex = 0;
  for (let mentions = 0; ; mentions++) {
    const match = pattern.exec(text);
    if (match === null) return null;
    if (mentions >= MAX_MENTIONS_PER_RULE || !isQuotedMention(text, match.index, match.index + match[0].length)) return match;
    if (match[0].length === 0) pattern.lastIndex++;
  }
}

function describeMatch(rule: TextRule, text: string, match: RegExpExecArray): InjectionFinding {
  return { rule: rule.id, category: rule.category, severity: rule.severity, excerpt: excerptAround(text, match.index, match[0].length), message: rule.description };
}

/** One line a user or model can act on: "blocked (memory): tells the model to … — “ignore all previous instructions”". */
export function describeScan(result: InjectionScanResult): string {
  if (result.findings.length === 0) return `clean (${result.source})`;
  const reasons = result.findings.map((f) => `${f.message} [${f.rule}]: “${f.excerpt}”`);
  return `${result.verdict} (${result.source}): ${reasons.join('; ')}`;
}

function invisibleFinding(text: string, found: InvisibleCharacter[]): InjectionFinding {
  const first = found[0] as InvisibleCharacter;
  const kinds = [...new Map(found.map((c) => [c.codePoint, `${codePointLabel(c.codePoint)} ${c.name}`])).values()];
  const shown = showInvisible(text.slice(Math.max(0, first.index - EXCERPT_CONTEXT), first.index + EXCERPT_CONTEXT));
  return {
    rule: 'invisible_unicode',
    category: 'invisible_unicode',
    severity: 'high',
    excerpt: clip(shown),
    index: first.index,
    message: `contains ${found.length} invisible character${found.length === 1 ? '' : 's'} (${kinds.join(', ')}) that hide text from the reader`,
  };
}

/** Replace every flagged invisible character with a visible `<U+XXXX>` label. */
function showInvisible(text: string): string {
  let out = text;
  for (const ch of findInvisibleCharacters(text).reverse()) {
    const width = String.fromCodePoint(ch.codePoint).length;
    out = `${out.slice(0, ch.index)}<${codePointLabel(ch.codePoint)}>${out.slice(ch.index + width)}`;
  }
  return out;
}

function excerptAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - EXCERPT_CONTEXT);
  const end = Math.min(text.length, index + length + EXCERPT_CONTEXT);
  return clip(`${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`);
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > EXCERPT_MAX ? `${oneLine.slice(0, EXCERPT_MAX - 1)}…` : oneLine;
}
